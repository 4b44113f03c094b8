/**
 * The pages plugin's own rules, with a renderer that writes a small page and counts its calls in
 * place of React Router (the whole path, React Router included, is in tests/e2e/hostile-cache.spec.ts).
 */
import { connect, type AddressInfo } from "node:net";
import { brotliDecompressSync } from "node:zlib";
import Fastify from "fastify";
import type { ServerBuild } from "react-router";
import { describe, expect, test } from "vitest";
import errors from "#server/plugins/errors.ts";
import forms from "#server/plugins/forms.ts";
import pages from "#server/plugins/pages.ts";
import session from "#server/plugins/session.ts";
import type { PageRenderer, RenderedPage } from "#server/pages/render-page.ts";
import { createAdminGuard } from "#server/identity/admin-guard.ts";
import { databaseForThisFile } from "#tests/support/database.ts";
import { sessionsFor } from "#tests/support/unit-app.ts";

const database = databaseForThisFile();

function route(id: string, path: string | undefined, index?: boolean) {
  return {
    id,
    parentId: id === "root" ? undefined : "root",
    path,
    index,
    caseSensitive: undefined,
    module: { default: () => null },
  };
}
const routes = Object.fromEntries(
  [
    route("root", ""),
    route("routes/home", undefined, true),
    route("routes/contact", "contact"),
    route("routes/reset", "reset"),
    {
      ...route("routes/signup", "signup"),
      module: { default: () => null, handle: { personalQuery: ["invite"] } },
    },
    route("routes/not-found", "*"),
  ].map((r) => [r.id, r]),
) as unknown as ServerBuild["routes"];

async function app(cache = true) {
  const renders: string[] = [];
  const render: PageRenderer = async (req, _session, _origin, target, method) => {
    renders.push(`${method} ${target}`);
    const path = target.split("?")[0]!;
    const known = ["/", "/contact", "/reset", "/signup"].includes(path);
    const page: RenderedPage = {
      status: known ? 200 : 404,
      headers: {
        "content-type": "text/html; charset=utf-8",
        // The reset page carries a one-time code in its query: it must never be shared.
        "cache-control": path === "/reset" ? "no-store" : "public, no-cache",
      },
      cookies: [],
      type: "text/html; charset=utf-8",
      body: Buffer.from(
        `<!DOCTYPE html><title>${path}</title><p>${"Workpapers that tie out. ".repeat(60)}</p><p>${req.method} ${target}</p>`,
      ),
    };
    return page;
  };
  const server = Fastify();
  await server.register(forms);
  await server.register(errors);
  const deps = sessionsFor(database());
  await server.register(session, deps);
  await server.register(pages, {
    render,
    sessions: deps.sessions,
    routes,
    cache,
    requireAdminPost: createAdminGuard(deps).requireAdminPost,
  });
  return { server, renders };
}

describe("the pages plugin", () => {
  test("one render per page for every anonymous visitor, whatever the query", async () => {
    const { server, renders } = await app();
    const urls = ["/contact", "/contact?utm_source=a", "/contact?x=1&x=2", "/contact?%00"];
    const bodies = await Promise.all(urls.map((url) => server.inject({ url })));
    expect(renders).toEqual(["GET /contact"]);
    expect(new Set(bodies.map((b) => b.headers.etag)).size).toBe(1);
    expect(bodies[1]!.body).toContain("GET /contact</p>");
  });

  test("other spellings of a page are sent to its one address, query kept", async () => {
    const { server, renders } = await app();
    for (const url of ["/Contact", "/contact/", "//contact", "/%63ontact"]) {
      const answer = await server.inject({ url: `${url}?utm_source=mail` });
      expect(answer.statusCode, url).toBe(301);
      expect(answer.headers.location, url).toBe("/contact?utm_source=mail");
    }
    expect(renders).toEqual([]);
  });

  test("every unknown path shares the one not-found page: misses cannot grow the cache", async () => {
    const { server, renders } = await app();
    for (let i = 0; i < 50; i++) {
      const answer = await server.inject({ url: `/no-such-page-${i}` });
      expect(answer.statusCode).toBe(404);
    }
    expect(renders).toEqual(["GET /no-such-page-0"]);
  });

  test("a query parameter a page names personal is rendered for its request alone, never shared", async () => {
    const { server, renders } = await app();
    for (const url of [
      "/signup",
      "/signup?utm_source=a",
      "/signup?invite=one",
      "/signup?invite=two",
    ])
      await server.inject({ url });
    await server.inject({ url: "/signup" });
    expect(renders).toEqual(["GET /signup", "GET /signup?invite=one", "GET /signup?invite=two"]);
  });

  test("a form post to an admin page meets the admin guard before its body is read", async () => {
    const { server, renders } = await app();
    for (const [url, type] of [
      ["/admin/waitlist", "application/x-www-form-urlencoded"],
      ["/ADMIN//waitlist.data", "text/plain"],
      ["/%61dmin/waitlist", "application/json"],
    ] as const) {
      const answer = await server.inject({
        method: "POST",
        url,
        headers: { "content-type": type },
        payload: "act=remove%3A1",
      });
      expect(answer.statusCode, url).toBe(401);
      expect(answer.body).toBe("Sign in as an administrator.");
    }
    expect(renders).toEqual([]);
  });

  test("a page that says no-store is rendered for each request, with its query", async () => {
    const { server, renders } = await app();
    await server.inject({ url: "/reset?oobCode=first" });
    await server.inject({ url: "/reset?oobCode=second" });
    expect(renders).toEqual([
      "GET /reset",
      "GET /reset?oobCode=first",
      "GET /reset?oobCode=second",
    ]);
  });

  test("compression as the client asks: Brotli, gzip when Brotli has q=0, none for identity", async () => {
    const { server } = await app();
    const br = await server.inject({ url: "/", headers: { "accept-encoding": "gzip, br" } });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.rawPayload).toString()).toContain("<title>/</title>");
    const gzip = await server.inject({ url: "/", headers: { "accept-encoding": "br;q=0, gzip" } });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    const none = await server.inject({ url: "/", headers: { "accept-encoding": "identity" } });
    expect(none.headers["content-encoding"]).toBeUndefined();
    const again = await server.inject({
      url: "/",
      headers: { "if-none-match": none.headers.etag },
    });
    expect(again.statusCode).toBe(304);
  });

  test("a post to a page must be a form; anything else is 415", async () => {
    const { server, renders } = await app();
    const json = await server.inject({ method: "POST", url: "/contact", payload: { a: 1 } });
    expect(json.statusCode).toBe(415);
    const form = await server.inject({
      method: "POST",
      url: "/contact",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "name=Ada",
    });
    expect(form.statusCode).toBe(200);
    expect(renders).toEqual(["POST /contact"]);
  });

  test("a target whose escapes do not decode, or that reads as a host, names no page: 400", async () => {
    const { server } = await app();
    await server.listen({ port: 0, host: "127.0.0.1" });
    const { port } = server.server.address() as AddressInfo;
    /** The status line's code for a request target sent as it is (inject would normalise it). */
    const statusOf = (target: string) =>
      new Promise<number>((resolve, reject) => {
        const socket = connect(port, "127.0.0.1", () =>
          socket.end(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`),
        );
        let answer = "";
        socket.on("data", (chunk: Buffer) => (answer += chunk.toString("latin1")));
        socket.on("end", () => resolve(Number(answer.slice(9, 12))));
        socket.on("error", reject);
      });
    const answers: Record<string, number> = {};
    for (const target of ["/%E0%A4%A", "/contact%", "//[", "/\\[", "/contact", "/a:b", "/[x]"])
      answers[target] = await statusOf(target);
    await server.close();
    expect(answers).toEqual({
      "/%E0%A4%A": 400,
      "/contact%": 400,
      "//[": 400,
      "/\\[": 400,
      "/contact": 200,
      "/a:b": 404,
      "/[x]": 404,
    });
  });

  test("without the cache (development) every request is rendered", async () => {
    const { server, renders } = await app(false);
    await server.inject({ url: "/contact" });
    await server.inject({ url: "/contact" });
    expect(renders).toEqual(["GET /contact", "GET /contact"]);
  });
});
