import type { MetaDescriptor } from "react-router";
import { SITE } from "#src/content/site.ts";
import type { PublicEnv } from "#src/lib/public-env.ts";

type MetaArgs = {
  location: { pathname: string };
  matches: readonly ({ id: string; loaderData?: unknown } | undefined)[];
};

/**
 * Title, description, canonical link, Open Graph and Twitter tags for one page, every URL absolute
 * from SITE_URL (which the root loader shares).
 */
export function pageMeta(
  args: MetaArgs,
  page: {
    title: string;
    description: string;
    noindex?: boolean;
    /** Another form of the page, such as its Atom feed, announced with rel="alternate". */
    alternate?: { type: string; title: string; path: string };
  },
): MetaDescriptor[] {
  const root = args.matches.find((m) => m?.id === "root")?.loaderData as
    { env?: PublicEnv } | undefined;
  const siteUrl = root?.env?.siteUrl ?? "";
  const url = `${siteUrl}${args.location.pathname === "/" ? "/" : args.location.pathname}`;
  const title = page.title === SITE.name ? page.title : `${page.title} | ${SITE.name}`;
  const image = `${siteUrl}/media/og-image.png`;
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: page.description },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: SITE.name },
    { property: "og:title", content: title },
    { property: "og:description", content: page.description },
    { property: "og:image", content: image },
    { property: "og:image:width", content: "1200" },
    { property: "og:image:height", content: "630" },
    { property: "og:image:alt", content: `${SITE.name}: ${SITE.tagline}` },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: page.description },
    { name: "twitter:image", content: image },
  ];
  if (page.alternate)
    tags.push({
      tagName: "link",
      rel: "alternate",
      type: page.alternate.type,
      title: page.alternate.title,
      href: `${siteUrl}${page.alternate.path}`,
    });
  // A page kept out of search engines (not found, account actions) names no URL of its own: its
  // HTML is then the same whatever path reached it, and is rendered once (decision 010).
  if (page.noindex) {
    tags.push({ name: "robots", content: "noindex" });
  } else {
    tags.push(
      { property: "og:url", content: url },
      { tagName: "link", rel: "canonical", href: url },
    );
  }
  return tags;
}
