import type { ServerBuild } from "react-router";
import { describe, expect, test } from "vitest";
import {
  classifyPath,
  sitemapPaths,
  staticPagePaths,
  warmPaths,
} from "#server/pages/page-paths.ts";

/** A route manifest shaped like the build's: root, index, nested and splat routes. */
function routes(): ServerBuild["routes"] {
  const route = (
    id: string,
    options: { path?: string; index?: boolean; handle?: object; parentId?: string },
  ) => ({
    id,
    parentId: options.parentId ?? (id === "root" ? undefined : "root"),
    path: options.path,
    index: options.index,
    caseSensitive: undefined,
    module: { handle: options.handle, default: () => null },
  });
  return Object.fromEntries(
    [
      route("root", { path: "" }),
      route("routes/home", { index: true, handle: { sitemap: true } }),
      route("routes/login", { path: "login" }),
      route("routes/contact", { path: "contact", handle: { sitemap: true } }),
      route("routes/admin-waitlist", { path: "admin/waitlist", handle: { signedIn: true } }),
      route("routes/not-found", { path: "*" }),
    ].map((r) => [r.id, r]),
  );
}

describe("the page lists, derived from the build's routes", () => {
  test("every static page, with no splat", () => {
    expect([...staticPagePaths(routes())].sort()).toEqual(
      ["/", "/admin/waitlist", "/contact", "/login"].sort(),
    );
  });

  test("the sitemap lists the routes that say so, in route order", () => {
    expect(sitemapPaths(routes())).toEqual(["/", "/contact"]);
  });

  test("start-up warms every page but those only for signed-in visitors", () => {
    expect(warmPaths(routes())).toEqual(["/", "/login", "/contact"]);
  });

  test("other spellings of a page redirect to it, keeping the query", () => {
    const pages = staticPagePaths(routes());
    expect(classifyPath("/Contact/", "?utm_source=x", pages)).toEqual({
      kind: "redirect",
      location: "/contact?utm_source=x",
    });
    expect(classifyPath("/contact", "", pages)).toEqual({ kind: "page", path: "/contact" });
    expect(classifyPath("/nowhere", "", pages)).toEqual({ kind: "not-found" });
  });
});
