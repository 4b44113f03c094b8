import { LANDING_NOTE_KEY } from "#src/lib/landing-note.ts";

/** Campaign parameters kept with a waitlist entry. No zod here: this module runs on every page. */
const UTM_KEYS = ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"] as const;

export type Attribution = Partial<
  Record<(typeof UTM_KEYS)[number] | "referrer" | "landing_path", string>
>;

const STORAGE_KEY = "tieout.attribution";

/** The address and referrer a page without the app noted, when it was the first of the visit. */
function notedLanding(): { url: URL; referrer: string } | null {
  try {
    const noted: unknown = JSON.parse(sessionStorage.getItem(LANDING_NOTE_KEY) ?? "null");
    if (Array.isArray(noted) && typeof noted[0] === "string" && typeof noted[1] === "string")
      return { url: new URL(noted[0]), referrer: noted[1] };
  } catch {
    // Not what the note writes: this page is taken as the first instead.
  }
  return null;
}

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

/** The first page of this visit: the one a document noted when the visit began there, or this one. */
function firstLanding(): Attribution {
  const noted = notedLanding();
  return noted
    ? attributionFrom(noted.url, noted.referrer || null)
    : attributionFrom(new URL(location.href), document.referrer || null);
}

/** The first page of this visit, remembered for the tab so a later waitlist entry keeps its source. */
export function rememberLanding(): void {
  try {
    if (!sessionStorage.getItem(STORAGE_KEY))
      sessionStorage.setItem(STORAGE_KEY, JSON.stringify(firstLanding()));
  } catch {
    // Storage can be off (private modes): attribution is a nicety.
  }
}

/**
 * The source of a lead made now: the first page of the visit as remembered, or, before the app has
 * remembered it (a press held until it ran) or when the tab cannot, as found now.
 */
export function rememberedLanding(): Attribution {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    if (raw) return JSON.parse(raw) as Attribution;
  } catch {
    // Unreadable: found again below.
  }
  return firstLanding();
}
