/** What a route module may say about itself through its `handle` export. */
export type RouteHandle = {
  /**
   * "load": the page has work to do at once (not only when the visitor reaches for it), so its
   * scripts load with it. "never": the page is a document to read (a legal text), sent to a
   * visitor who is not signed in without the app at all; links load pages, and a page whose markup
   * has a control that needs a script keeps its app regardless (decision 034). Every other page
   * loads its scripts on the first pointer, key, touch or focus event (decision 009), and a
   * signed-in visitor's page loads them at once.
   */
  hydrate?: "load" | "never";
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
/** A legal text in the sitemap, sent to visitors as a document without the app (decision 034). */
export const DOCUMENT_IN_SITEMAP: RouteHandle = { sitemap: true, hydrate: "never" };
export const SIGNED_IN_ONLY: RouteHandle = { signedIn: true };
