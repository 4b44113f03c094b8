/**
 * The site behind a TLS-terminating proxy on localhost:443 (and plain HTTP on :80), as it runs
 * behind a load balancer in production, scored by MDN's HTTP Observatory and checked directly:
 * HTTP is redirected by the app, HSTS is sent, forwarded headers are believed only from the
 * configured proxy, and the session cookie is a __Host- cookie.
 *
 * Ports 80 and 443 are shared by the whole machine, so these tests run one after the other in one
 * worker; when a port is taken the proxy refuses to start and the tests fail, saying which port.
 */
import { idTokenFor } from "#tests/support/accounts.ts";
import { BEHIND_PROXY, DEPLOYED_SITE_URL, PRODUCTION_FIREBASE } from "#tests/support/deployed.ts";
import { expect, test } from "#tests/support/fixtures.ts";
import { describeAll, describeShortfalls, runObservatory } from "#tests/support/observatory.ts";
import { startServer, type RunningServer } from "#tests/support/server.ts";
import { send, startTlsProxy, type TlsProxy } from "#tests/support/tls-proxy.ts";

test.describe.configure({ mode: "serial", timeout: 90_000 });

test.describe("the production configuration behind the TLS proxy", () => {
  let app: RunningServer;
  let proxy: TlsProxy;

  test.beforeAll(async () => {
    app = await startServer({ ...BEHIND_PROXY, ...PRODUCTION_FIREBASE });
    proxy = await startTlsProxy(app.port);
  });

  test.afterAll(async () => {
    await proxy?.stop();
    await app?.stop();
  });

  test("MDN's HTTP Observatory grades the site A+ with a score of 100 or more", async () => {
    const result = await runObservatory("localhost", { trustCertFile: proxy.certFile });
    const report = `${describeShortfalls(result)}\n\nAll tests:\n${describeAll(result)}`;
    test.info().annotations.push({ type: "observatory", description: report });
    expect(result.scan.grade, report).toBe("A+");
    expect(result.scan.score, report).toBeGreaterThanOrEqual(100);
    // The scan reached the site over verified TLS (an untrusted certificate fails these two).
    expect(result.tests["redirection"]?.result, report).toBe("redirection-to-https");
    expect(result.tests["strict-transport-security"]?.pass, report).toBe(true);
  });

  test("plain HTTP is redirected to the same path and query on HTTPS", async () => {
    const response = await send("http://localhost/some/path?q=1");
    expect([301, 308], `status ${response.status}`).toContain(response.status);
    expect(response.headers.location).toBe("https://localhost/some/path?q=1");
    // Load balancers probe health over plain HTTP: answered, not redirected.
    expect((await send("http://localhost/api/health")).status).toBe(200);
  });

  test("HTTPS responses carry a year-long HSTS header covering subdomains", async () => {
    const response = await send("https://localhost/", { ca: proxy.cert });
    expect(response.status).toBe(200);
    const hsts = response.headers["strict-transport-security"] ?? "";
    const maxAge = Number(/max-age=(\d+)/i.exec(hsts)?.[1] ?? 0);
    expect(maxAge, hsts).toBeGreaterThanOrEqual(31_536_000);
    expect(hsts.toLowerCase().split(/\s*;\s*/)).toContain("includesubdomains");
  });
});

test.describe("forwarded headers from anyone but the configured proxy", () => {
  test("a forged X-Forwarded-Proto: https is not believed: the request is still redirected", async () => {
    // An https SITE_URL needs a TRUST_PROXY; this server's proxy is elsewhere (TEST-NET-1), so a
    // request from 127.0.0.1 is a client's, and its X-Forwarded-* headers are only claims.
    const direct = await startServer({ SITE_URL: DEPLOYED_SITE_URL, TRUST_PROXY: "192.0.2.10" });
    try {
      const response = await send(`${direct.url}/some/path?q=1`, {
        headers: { "X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.7" },
      });
      expect([301, 308], `status ${response.status}`).toContain(response.status);
      expect(response.headers.location).toBe("https://localhost/some/path?q=1");
      // An API call over plain HTTP is refused, not redirected: its token has already travelled
      // in the clear, and a redirect would hide that from whoever wrote the script.
      const api = await send(`${direct.url}/api/waitlist`, {
        method: "POST",
        headers: { "X-Forwarded-Proto": "https", "Content-Type": "application/json" },
      });
      expect(api.status).toBe(403);
      expect(api.headers.location).toBeUndefined();
    } finally {
      await direct.stop();
    }
  });
});

test.describe("signing in over TLS (Auth emulator)", () => {
  let app: RunningServer;
  let proxy: TlsProxy;

  test.beforeAll(async () => {
    app = await startServer(BEHIND_PROXY);
    proxy = await startTlsProxy(app.port);
  });

  test.afterAll(async () => {
    await proxy?.stop();
    await app?.stop();
  });

  test("the session cookie is a __Host- cookie: Secure, HttpOnly, SameSite, Path=/, no Domain", async ({
    newUser,
  }) => {
    const response = await send("https://localhost/api/session", {
      method: "POST",
      ca: proxy.cert,
      headers: { Authorization: `Bearer ${await idTokenFor(newUser)}`, Origin: DEPLOYED_SITE_URL },
    });
    expect(response.status, response.body).toBe(200);
    const cookies = response.headers["set-cookie"] ?? [];
    expect(cookies).toHaveLength(1);
    const [pair = "", ...attributes] = (cookies[0] ?? "").split(/\s*;\s*/);
    // The session id (base64url) and its HMAC-SHA256 signature (base64, as @fastify/cookie writes it).
    expect(pair).toMatch(/^__Host-tieout_session=[A-Za-z0-9_-]{24}\.[A-Za-z0-9+/%]{43,}$/);
    const names = attributes.map((a) => a.split("=")[0]?.toLowerCase());
    expect(names).toContain("secure");
    expect(names).toContain("httponly");
    expect(names).not.toContain("domain");
    expect(attributes).toContain("Path=/");
    expect(attributes.find((a) => /^samesite=/i.test(a))).toMatch(/^SameSite=(Lax|Strict)$/i);
  });
});
