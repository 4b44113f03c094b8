/**
 * Which page a request path names, in one canonical spelling (decision 010). React Router matches
 * paths without regard to case or a trailing slash, so `/WAITLIST/` would render the waitlist too:
 * every other spelling of a page's path is sent to the canonical one with a 301, and a path that
 * names no page is the not-found page. The set of pages comes from the build's own route manifest,
 * so it cannot drift from the routes.
 */
import type { ServerBuild } from "react-router";
import type { RouteHandle } from "#src/lib/route-handle.ts";

export type PagePath =
  { kind: "page"; path: string } | { kind: "redirect"; location: string } | { kind: "not-found" };

/** The static paths of the build's routes ("/", "/login", "/auth/action"…); splats are left out. */
export function staticPagePaths(routes: ServerBuild["routes"]): ReadonlySet<string> {
  return new Set(pagesOf(routes).keys());
}

/** The paths of the routes whose module's handle passes `test`, in route order (decision 015). */
function pathsWhere(routes: ServerBuild["routes"], test: (handle: RouteHandle) => boolean) {
  return [...pagesOf(routes)]
    .filter(([, route]) => test((route.module.handle as RouteHandle | undefined) ?? {}))
    .map(([path]) => path);
}

/** What /sitemap.xml lists: the routes that say `handle.sitemap`. */
export function sitemapPaths(routes: ServerBuild["routes"]): string[] {
  return pathsWhere(routes, (handle) => handle.sitemap === true);
}

/** What start-up renders into the page cache: every page but those only for signed-in visitors. */
export function warmPaths(routes: ServerBuild["routes"]): string[] {
  return pathsWhere(routes, (handle) => handle.signedIn !== true);
}

/** The pages whose handle names query parameters that make them personal, with those names. */
export function personalQueryPaths(
  routes: ServerBuild["routes"],
): ReadonlyMap<string, readonly string[]> {
  const found = new Map<string, readonly string[]>();
  for (const [path, route] of pagesOf(routes)) {
    const names = (route.module.handle as RouteHandle | undefined)?.personalQuery;
    if (names && names.length > 0) found.set(path, names);
  }
  return found;
}

type BuildRoute = NonNullable<ServerBuild["routes"][string]>;

function pagesOf(routes: ServerBuild["routes"]): Map<string, BuildRoute> {
  const byId = new Map(Object.values(routes).flatMap((r) => (r ? [[r.id, r] as const] : [])));
  const pages = new Map<string, BuildRoute>();
  for (const route of byId.values()) {
    const segments: string[] = [];
    let current: BuildRoute | undefined = route;
    while (current) {
      if (current.path) segments.unshift(current.path);
      current = current.parentId ? byId.get(current.parentId) : undefined;
    }
    const path = `/${segments.join("/")}`.replace(/\/+/g, "/");
    if (route.index || route.path) {
      if (!/[*:?]/.test(path)) pages.set(path === "/" ? "/" : path.replace(/\/$/, ""), route);
    }
  }
  return pages;
}

/** The canonical spelling of a path: one slash between segments, none at the end, lower case. */
function canonicalSpelling(path: string): string {
  const collapsed = path.replace(/\/{2,}/g, "/").toLowerCase();
  return collapsed.length > 1 ? collapsed.replace(/\/+$/, "") : collapsed;
}

/**
 * Classifies the path of a request target (`/x/y?q`). `pathname` is the raw path, before any
 * percent-decoding; `search` is kept on a redirect.
 */
export function classifyPath(
  pathname: string,
  search: string,
  pages: ReadonlySet<string>,
): PagePath {
  if (pages.has(pathname)) return { kind: "page", path: pathname };
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return { kind: "not-found" };
  }
  const canonical = canonicalSpelling(decoded);
  if (pages.has(canonical)) return { kind: "redirect", location: `${canonical}${search}` };
  return { kind: "not-found" };
}
