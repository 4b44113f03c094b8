/** What a route module may say about itself through its `handle` export. */
export type RouteHandle = {
  /**
   * "load": the page has work to do at once (not only when the visitor reaches for it), so its
   * scripts load with it. Every other page loads them on the first pointer, key, touch or focus
   * event (decision 009).
   */
  hydrate?: "load";
};

export const HYDRATE_ON_LOAD: RouteHandle = { hydrate: "load" };
