/** /robots.txt and /sitemap.xml; the sitemap lists the build's routes that say so in their handle. */
import type { FastifyInstance } from "fastify";
import type { ServerBuild } from "react-router";
import type { Env } from "#server/env.ts";
import { sitemapPaths } from "#server/pages/page-paths.ts";
import { robotsTxt, sitemapXml } from "#server/http/seo.ts";

export type SeoOptions = { env: Env; routes: ServerBuild["routes"] };

export default async function seo(app: FastifyInstance, { env, routes }: SeoOptions) {
  const robots = robotsTxt(env);
  const sitemap = sitemapXml(env, sitemapPaths(routes));
  app.get("/robots.txt", async (_req, reply) =>
    reply
      .type("text/plain; charset=utf-8")
      .header("Cache-Control", "public, max-age=3600")
      .send(robots),
  );
  app.get("/sitemap.xml", async (_req, reply) =>
    reply
      .type("application/xml; charset=utf-8")
      .header("Cache-Control", "public, max-age=3600")
      .send(sitemap),
  );
}
