/** What a route module may say about itself through its `handle` export. */
export type RouteHandle = {
  /**
   * "interaction": the page needs no JavaScript until the visitor reaches for it, so its scripts
   * load on the first pointer, key, touch or focus event (decision 006).
   */
  hydrate?: "interaction";
};

export const HYDRATE_ON_INTERACTION: RouteHandle = { hydrate: "interaction" };
