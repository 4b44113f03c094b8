/** What a route module may say about itself through its `handle` export. */
export type RouteHandle = {
  /**
   * "load": the page has work to do at once (not only when the visitor reaches for it), so its
   * scripts load with it. Every other page loads them on the first pointer, key, touch or focus
   * event (decision 009).
   */
  hydrate?: "load";
  /** A public page search engines should index: listed in /sitemap.xml (derived, decision 015). */
  sitemap?: true;
  /** A page only for signed-in visitors (the admin): never warmed into the shared page cache. */
  signedIn?: true;
};

export const HYDRATE_ON_LOAD: RouteHandle = { hydrate: "load" };
export const IN_SITEMAP: RouteHandle = { sitemap: true };
export const SIGNED_IN_ONLY: RouteHandle = { signedIn: true };
