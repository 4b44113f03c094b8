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
  /**
   * Query parameters that make the page personal (an invitation's token): a request carrying one
   * is rendered for itself, never answered from or kept in the shared page cache (decision 024).
   * Without them the page is the same for everyone, as every page is (decision 010).
   */
  personalQuery?: readonly string[];
};

export const HYDRATE_ON_LOAD: RouteHandle = { hydrate: "load" };
export const IN_SITEMAP: RouteHandle = { sitemap: true };
export const SIGNED_IN_ONLY: RouteHandle = { signedIn: true };
