import type { Env } from "#server/env.ts";

/** Pages search engines should index, in the order a visitor would find them. */
export const INDEXED_PATHS = [
  "/",
  "/waitlist",
  "/contact",
  "/terms-of-service",
  "/privacy-policy",
  "/dpa",
] as const;

/** Every page an anonymous visitor can open: rendered into the page cache right after start-up. */
export const PUBLIC_PATHS = [...INDEXED_PATHS, "/login", "/signup", "/forgot-password"] as const;

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

export function sitemapXml(env: Env): string {
  const urls = INDEXED_PATHS.map((p) => `  <url><loc>${env.siteUrl}${p}</loc></url>`).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}
