/** Campaign parameters kept with a waitlist entry. No zod here: this module runs on every page. */
const UTM_KEYS = ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"] as const;

export type Attribution = Partial<
  Record<(typeof UTM_KEYS)[number] | "referrer" | "landing_path", string>
>;

const STORAGE_KEY = "tieout.attribution";

/** utm_* of a URL, its path, and the referring page when it is another site. */
export function attributionFrom(url: URL, referrer: string | null): Attribution {
  const found: Attribution = {};
  for (const key of UTM_KEYS) {
    const value = url.searchParams.get(key);
    if (value) found[key] = value.slice(0, 500);
  }
  if (referrer) {
    try {
      if (new URL(referrer).origin !== url.origin) found.referrer = referrer.slice(0, 2000);
    } catch {
      // Not a URL: not worth keeping.
    }
  }
  found.landing_path = `${url.pathname}${url.search}`.slice(0, 2000);
  return found;
}

/** The first page of this visit, remembered for the tab so a later waitlist entry keeps its source. */
export function rememberLanding(): void {
  try {
    if (sessionStorage.getItem(STORAGE_KEY)) return;
    sessionStorage.setItem(
      STORAGE_KEY,
      JSON.stringify(attributionFrom(new URL(location.href), document.referrer || null)),
    );
  } catch {
    // Storage can be off (private modes): attribution is a nicety.
  }
}

export function rememberedLanding(): Attribution | null {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    return raw ? (JSON.parse(raw) as Attribution) : null;
  } catch {
    return null;
  }
}
