import { LANDING_NOTE_KEY } from "#src/lib/hydration-protocol.ts";
import { REFERRAL_PARAM, referralCodeOf } from "#src/features/waitlist/referral.ts";

/** Campaign parameters kept with a waitlist entry. No zod here: this module runs on every page. */
const UTM_KEYS = ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"] as const;

export type Attribution = Partial<
  Record<(typeof UTM_KEYS)[number] | "referrer" | "landing_path" | typeof REFERRAL_PARAM, string>
>;

/**
 * utm_* of a URL, the referral code of a shared link (decision 045), its path, and the referring
 * page when it is another site. The path keeps of its query only the campaign: a landing on a
 * mail's link must not carry the link's token into a lead.
 */
function attributionFrom(url: URL, referrer: string | null): Attribution {
  const found: Attribution = {};
  for (const key of UTM_KEYS) {
    const value = url.searchParams.get(key);
    if (value) found[key] = value.slice(0, 500);
  }
  const referral = referralCodeOf(url.searchParams.get(REFERRAL_PARAM));
  if (referral) found[REFERRAL_PARAM] = referral;
  if (referrer) {
    try {
      if (new URL(referrer).origin !== url.origin) found.referrer = referrer.slice(0, 2000);
    } catch {
      // Not a URL: not worth keeping.
    }
  }
  const campaign = new URLSearchParams();
  for (const [key, value] of url.searchParams)
    if ((UTM_KEYS as readonly string[]).includes(key)) campaign.append(key, value);
  const query = campaign.toString();
  found.landing_path = `${url.pathname}${query ? `?${query}` : ""}`.slice(0, 2000);
  return found;
}

/** A page's address and its referrer, as the landing note keeps them. */
export type Landing = { href: string; referrer: string };

const parsed = (href: string): URL | null => {
  try {
    return new URL(href);
  } catch {
    return null;
  }
};

/** The note's [address, referrer], when storage holds what the note writes. */
function notedLanding(noted: unknown): Landing | null {
  if (!Array.isArray(noted) || typeof noted[0] !== "string" || typeof noted[1] !== "string")
    return null;
  return parsed(noted[0]) ? { href: noted[0], referrer: noted[1] } : null;
}

/**
 * The source of a visit from its landing: the first page the note found in the tab (`noted`, raw
 * from storage), or `here` when there is none (storage off). A landing whose referrer is a page of
 * this site was not the first: the page before it ran no script (JavaScript off there) or was in
 * another tab, and the link followed from it still names its campaign. That page is then the
 * landing, and the site that sent the visitor to it is unknown: the way a form posted without
 * JavaScript is attributed by its Referer (src/routes/waitlist.tsx).
 */
export function attributionOfLanding(noted: unknown, here: Landing): Attribution {
  const { href, referrer } = notedLanding(noted) ?? here;
  const page = parsed(href);
  if (!page) return {};
  const before = parsed(referrer);
  return before?.origin === page.origin
    ? attributionFrom(before, null)
    : attributionFrom(page, referrer || null);
}

/**
 * The source of a lead made now, on any page: every page notes its address and referrer before
 * anything else runs, the first time in a tab (src/lib/landing-note.ts), and this reads that note.
 * The app writes nothing of its own, so nothing it does can replace the landing the note kept.
 */
export function landingAttribution(): Attribution {
  let noted: unknown = null;
  try {
    noted = JSON.parse(sessionStorage.getItem(LANDING_NOTE_KEY) ?? "null");
  } catch {
    // Storage off, or not what the note writes: this page is taken as the first.
  }
  return attributionOfLanding(noted, { href: location.href, referrer: document.referrer });
}
