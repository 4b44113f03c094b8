/**
 * Operations: what the server writes to its logs (a request id on every line, the
 * security events, and never a password, token, cookie or full email), a graceful SIGTERM, and
 * no secret from the environment in anything the browser receives.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { idTokenFor } from "#tests/support/accounts.ts";
import { uniqueEmail } from "#tests/support/emulator.ts";
import { BASE_URL, E2E_DATA_DIR } from "#tests/support/e2e-env.ts";
import { expect, test } from "#tests/support/fixtures.ts";
import { ALL_PAGES } from "#tests/support/pages.ts";
import { startServer } from "#tests/support/server.ts";
import { countsByEmail } from "#tests/support/waitlist-db.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type LogLine = Record<string, unknown> & { msg?: string; event?: string; reqId?: string };

function logLines(output: string): LogLine[] {
  return output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogLine);
}

test("logs: a request id on every line, security events kept, no secret or full email", async ({
  newUser,
}) => {
  const server = await startServer({
    LOG_LEVEL: "info",
    // The refused (422) submission below counts too: three a minute leaves two for the lead.
    WAITLIST_RATE_LIMIT: "3",
    ADMIN_EMAILS: "ops-admin@tieout.test",
  });
  try {
    const { email, password, uid } = newUser;
    const idToken = await idTokenFor(newUser);
    const post = (url: string, init: RequestInit = {}) =>
      fetch(`${server.url}${url}`, { method: "POST", ...init });

    const forged = `${idToken.slice(0, -12)}AAAAAAAAAAAA`;
    const refused = await post("/api/session", { headers: { Authorization: `Bearer ${forged}` } });
    expect(refused.status).toBe(401);
    const refusedId = refused.headers.get("x-request-id");
    expect(refusedId).toMatch(UUID);

    const signedIn = await post("/api/session", {
      headers: { Authorization: `Bearer ${idToken}` },
    });
    expect(signedIn.status).toBe(200);
    const cookie = (signedIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const cookieValue = cookie.split("=")[1] ?? "";
    expect(cookieValue.length).toBeGreaterThan(20);

    const notAdmin = await fetch(`${server.url}/api/admin/waitlist.csv`, {
      headers: { Cookie: cookie },
    });
    expect(notAdmin.status).toBe(403);
    const adminPage = await fetch(`${server.url}/admin/waitlist`, { headers: { Cookie: cookie } });
    expect(adminPage.status).toBe(403);
    // Signed out, an admin page is refused once per request: it is rendered once, not again
    // after the page cache finds it cannot share it.
    const anonymousIds: (string | null)[] = [];
    for (let i = 0; i < 2; i++) {
      const anonymous = await fetch(`${server.url}/admin/waitlist`, { redirect: "manual" });
      expect(anonymous.status).toBeLessThan(500);
      anonymousIds.push(anonymous.headers.get("x-request-id"));
    }

    const invalid = await post("/api/waitlist", {
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Typo Tess", email: "tess-at-example.com" }),
    });
    expect(invalid.status).toBe(422);

    const lead = uniqueEmail("ops-lead");
    const statuses: number[] = [];
    let limitedId: string | null = null;
    for (let i = 0; i < 3; i++) {
      const response = await post("/api/waitlist", {
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name: "Dana Ledger", email: lead, company: "Ledger & Co" }),
      });
      statuses.push(response.status);
      if (response.status === 429) limitedId = response.headers.get("x-request-id");
    }
    expect(statuses).toEqual([202, 202, 429]);

    // A URL the router cannot read, and a request that cannot even be parsed: a line each.
    const unreadable = await fetch(`${server.url}/%ff?code=one-time-code-in-a-bad-url`);
    expect(unreadable.status).toBe(400);
    const unreadableId = unreadable.headers.get("x-request-id");
    expect(unreadableId).toMatch(UUID);
    const socket = connect(server.port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    const malformed = readResponse(socket);
    socket.write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nA header without its colon\r\n\r\n");
    expect(await malformed).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    socket.destroy();

    const crossSite = await post("/api/waitlist", {
      headers: { "Content-Type": "application/json", Origin: "https://evil.example" },
      body: "{}",
    });
    expect(crossSite.status).toBe(403);

    // pino writes as it goes; wait for the last request's own line.
    const lastId = crossSite.headers.get("x-request-id");
    await expect
      .poll(() => logLines(server.output()).some((l) => l.msg === "request" && l.reqId === lastId))
      .toBe(true);
    const lines = logLines(server.output());
    const byEvent = (event: string) => lines.filter((l) => l.event === event);

    for (const line of lines.filter((l) => l.msg === "request")) {
      expect(line.reqId, JSON.stringify(line)).toMatch(UUID);
      expect(String(line.path)).not.toContain("?");
    }
    expect(byEvent("session.token_refused").map((l) => l.reqId)).toEqual([refusedId]);
    expect(byEvent("session.created")).toHaveLength(1);
    expect(byEvent("session.created")[0]?.email).toBe(`${email[0]}***@example.com`);
    expect(byEvent("admin.forbidden")[0]?.email).toBe(`${email[0]}***@example.com`);
    expect(byEvent("waitlist.rate_limited").map((l) => l.reqId)).toEqual([limitedId]);
    expect(byEvent("request.cross_site_refused")).toHaveLength(1);
    expect(byEvent("request.bad_url").map((l) => [l.reqId, l.path, l.status, l.peer])).toEqual([
      [unreadableId, "/%ff", 400, "127.0.0.1"],
    ]);
    expect(byEvent("request.malformed").map((l) => [l.status, l.reason, l.peer])).toEqual([
      [400, "HPE_INVALID_HEADER_TOKEN", "127.0.0.1"],
    ]);
    expect(byEvent("admin.page_refused").map((l) => [l.reqId, l.access])).toEqual([
      [adminPage.headers.get("x-request-id"), "forbidden"],
      ...anonymousIds.map((id) => [id, "signed-out"]),
    ]);
    expect(byEvent("waitlist.invalid")[0]?.fields).toEqual(["email"]);
    // Who and from where: the client address on every request line, the account when signed in.
    const requests = lines.filter((l) => l.msg === "request");
    expect(requests.every((l) => l.ip === "127.0.0.1")).toBe(true);
    const signedInLines = requests.filter(
      (l) => l.path === "/admin/waitlist" || l.path === "/api/admin/waitlist.csv",
    );
    expect(signedInLines.map((l) => l.uid)).toEqual([uid, uid]);

    const everything = server.output();
    for (const secret of [
      password,
      idToken,
      forged,
      cookieValue,
      email,
      lead,
      "tess-at-example",
      "one-time-code",
    ]) {
      expect(everything, `the logs hold ${secret.slice(0, 12)}…`).not.toContain(secret);
    }
  } finally {
    await server.stop("SIGKILL");
  }
});

/** Reads one HTTP response from a socket (enough for a small JSON answer). */
function readResponse(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = "";
    socket.on("data", (chunk: Buffer) => {
      data += chunk.toString();
      const end = data.indexOf("\r\n\r\n");
      const length = Number(/content-length: (\d+)/i.exec(data)?.[1] ?? NaN);
      if (end >= 0 && data.length >= end + 4 + length) resolve(data);
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(data));
  });
}

/** Whether anything answers on the server's port (within 2 s). */
async function answers(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

test("SIGTERM: no new connections, the request in flight is finished and kept, exit 0", async () => {
  const server = await startServer();
  const email = uniqueEmail("sigterm");
  const body = JSON.stringify({ name: "Sam Closing", email, company: "Year End LLP" });
  const half = Math.floor(body.length / 2);

  const socket = connect(server.port, "127.0.0.1");
  await new Promise((resolve) => socket.once("connect", resolve));
  const answer = readResponse(socket);
  // The request is under way: headers and half the body are in, the rest is still to come.
  socket.write(
    `POST /api/waitlist HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`,
  );
  // The server has the request once its body stream exists; a health request on another
  // connection answered after our write means the server has read what we wrote.
  expect((await fetch(`${server.url}/api/health`)).status).toBe(200);

  server.process.kill("SIGTERM");
  // Coming and going are JSON lines like the rest, even at LOG_LEVEL=warn (the tests' servers).
  await expect
    .poll(() =>
      logLines(server.output())
        .filter((l) => String(l.event).startsWith("server."))
        .map((l) => [l.event, l.signal ?? l.port]),
    )
    .toEqual([
      ["server.listening", server.port],
      ["server.stopping", "SIGTERM"],
    ]);
  // New connections are refused from now on.
  await expect.poll(() => answers(server.url)).toBe(false);

  socket.write(body.slice(half));
  const response = await answer;
  expect(response).toMatch(/^HTTP\/1\.1 202 /);
  socket.destroy();

  expect(await server.stop()).toBe(0);
  // The database was closed cleanly and the entry is there.
  expect((await countsByEmail({ dataDir: server.dataDir })).get(email)).toBe(1);
});

test("npm start, sent SIGTERM as a supervisor sends it, stops the site the same graceful way", async () => {
  // The signal goes to npm alone, as `docker stop` sends it to a container's first process.
  test.setTimeout(90_000);
  const server = await startServer({}, { npmStart: true });
  const exited = new Promise<number | null>((resolve) => server.process.once("exit", resolve));
  server.process.kill("SIGTERM");
  await expect.poll(() => server.output()).toContain("SIGTERM received");
  // npm exits as the server does (a second signal would be another test: none is sent).
  expect(await exited).toBe(0);
  // Nothing of the site is left listening.
  await expect.poll(() => answers(server.url)).toBe(false);
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

test("no secret from the environment reaches a client asset or a page", async () => {
  test.setTimeout(180_000);
  // Build the client with canary secrets in the environment (plain and VITE_-prefixed, which is
  // what Vite would expose if the code ever read import.meta.env), then search every file.
  const canaries = {
    SESSION_SECRET: "canary-session-secret-5f1c9e0a7d3b42e8a6c4",
    ERASURE_KEY: "canary-erasure-key-3e8b1f6a0c9d47b2a5e1",
    DATABASE_URL: "postgres://canary_user:canary-db-password-91ab@db.internal:5432/tieout",
    WAITLIST_FORWARD_URL: "https://collector.internal/canary-forward-path-77d2",
    ADMIN_EMAILS: "canary-admin-4c1d@tieout.test",
    FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099",
  };
  const env: Record<string, string> = { ...(process.env as Record<string, string>) };
  for (const [key, value] of Object.entries(canaries)) {
    env[key] = value;
    env[`VITE_${key}`] = value;
  }
  const outDir = mkdtempSync(path.join(tmpdir(), "tieout-secret-scan-"));
  try {
    execFileSync(process.execPath, ["node_modules/@react-router/dev/bin.cjs", "build"], {
      env: { ...env, NODE_ENV: "production", TIEOUT_BUILD_DIRECTORY: outDir },
      stdio: "pipe",
    });
    const files = filesUnder(path.join(outDir, "client"));
    expect(files.some((f) => f.endsWith(".js"))).toBe(true);
    for (const file of files) {
      const text = readFileSync(file).toString("latin1");
      for (const [key, value] of Object.entries(canaries)) {
        if (key === "FIREBASE_AUTH_EMULATOR_HOST") continue; // public, and not a secret
        expect(text.includes(value), `${key} is in ${path.relative(outDir, file)}`).toBe(false);
      }
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }

  // The running test server's own secrets: the session key it keeps in its data folder and the
  // administrators' addresses, in no page it serves.
  const sessionSecret = readFileSync(path.join(E2E_DATA_DIR, "session-secret"), "utf8").trim();
  expect(sessionSecret.length).toBeGreaterThanOrEqual(32);
  for (const { path: page } of ALL_PAGES) {
    const html = await (await fetch(`${BASE_URL}${page}`)).text();
    expect(html).not.toContain(sessionSecret);
    expect(html).not.toContain("admin@tieout.test");
  }
});
