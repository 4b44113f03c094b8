import type { Env } from "#server/env.ts";

export function robotsTxt(env: Env): string {
  return [
    "User-agent: *",
    "Allow: /",
    "Disallow: /api/",
    "Disallow: /admin/",
    "",
    `Sitemap: ${env.siteUrl}/sitemap.xml`,
    "",
  ].join("\n");
}

/** The sitemap of `paths` (the routes that say `handle.sitemap`, server/pages/page-paths.ts). */
export function sitemapXml(env: Env, paths: readonly string[]): string {
  const urls = paths.map((p) => `  <url><loc>${env.siteUrl}${p}</loc></url>`).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}
