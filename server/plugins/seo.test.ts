import Fastify from "fastify";
import type { ServerBuild } from "react-router";
import { describe, expect, test } from "vitest";
import { parseEnv } from "#server/env.ts";
import seo from "#server/plugins/seo.ts";

function route(id: string, path: string | undefined, handle?: object, index?: boolean) {
  return {
    id,
    parentId: id === "root" ? undefined : "root",
    path,
    index,
    caseSensitive: undefined,
    module: { handle, default: () => null },
  };
}

const routes = Object.fromEntries(
  [
    route("root", ""),
    route("routes/home", undefined, { sitemap: true }, true),
    route("routes/contact", "contact", { sitemap: true }),
    route("routes/login", "login"),
  ].map((r) => [r.id, r]),
) as unknown as ServerBuild["routes"];

describe("the seo plugin", () => {
  test("robots.txt keeps crawlers out of the API and the admin, and names the sitemap", async () => {
    const server = Fastify();
    await server.register(seo, { env: parseEnv({ SITE_URL: "http://127.0.0.1:3999" }), routes });
    const answer = await server.inject({ url: "/robots.txt" });
    expect(answer.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(answer.body).toContain("Disallow: /api/\nDisallow: /admin/");
    expect(answer.body).toContain("Sitemap: http://127.0.0.1:3999/sitemap.xml");
  });

  test("the sitemap lists the routes that ask for it, at SITE_URL, and no others", async () => {
    const server = Fastify();
    await server.register(seo, { env: parseEnv({ SITE_URL: "http://127.0.0.1:3999" }), routes });
    const answer = await server.inject({ url: "/sitemap.xml" });
    expect(answer.headers["content-type"]).toBe("application/xml; charset=utf-8");
    const locations = [...answer.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locations).toEqual(["http://127.0.0.1:3999/", "http://127.0.0.1:3999/contact"]);
  });
});
