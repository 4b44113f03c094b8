/**
 * What the suppression list stops, written once (decision 041). Every mail the site writes names
 * its category when it is put in the outbox, and the worker asks `stoppedBy` at the moment of
 * sending, so a suppression added after a mail was queued still stops it.
 *
 * - `requested`: what the person asked for just now (the confirmation of a form they sent, their
 *   privacy request's copy, an administrator's sign-in code). Only an address that cannot receive
 *   mail (refused outright, or hard-bounced) stops it: an unsubscribe or a complaint is about our
 *   other mail, not about what they are asking for this minute.
 * - `security`: what an administrator must hear about their own access (a passkey added, a lock).
 *   Stopped like `requested`.
 * - `notice`: mail about their place on the list that they did not just ask for (an invitation,
 *   a decline, a sub-processor notice). Any suppression of every kind stops it.
 * - the two broadcast kinds: stopped by a suppression of every kind, or by the one of that kind
 *   (its one-click unsubscribe).
 */

export const MAIL_CATEGORIES = [
  "requested",
  "security",
  "notice",
  "waitlist-news",
  "product-news",
] as const;
export type MailCategory = (typeof MAIL_CATEGORIES)[number];

/** A suppression as the policy needs it. */
export type Suppression = {
  scope: "all" | "waitlist-news" | "product-news";
  reason: "refused" | "hard-bounce" | "soft-bounces" | "complaint" | "unsubscribe" | "admin";
};

/** Reasons that mean the address cannot receive mail at all. */
const UNDELIVERABLE: ReadonlySet<Suppression["reason"]> = new Set(["refused", "hard-bounce"]);

/** The suppression that stops a mail of this category, or null when it may go. */
export function stoppedBy(
  category: MailCategory,
  suppressions: readonly Suppression[],
): Suppression | null {
  for (const suppression of suppressions) {
    switch (category) {
      case "requested":
      case "security":
        if (suppression.scope === "all" && UNDELIVERABLE.has(suppression.reason))
          return suppression;
        break;
      case "notice":
        if (suppression.scope === "all") return suppression;
        break;
      case "waitlist-news":
      case "product-news":
        if (suppression.scope === "all" || suppression.scope === category) return suppression;
        break;
    }
  }
  return null;
}

/**
 * The category of a stored mail. Mail queued before categories existed has none: it is taken as
 * a `notice`, the strictest category that was ever queued then, so the safe reading needs nothing
 * of it.
 */
export function categoryOf(payload: { category?: unknown }): MailCategory {
  return (MAIL_CATEGORIES as readonly unknown[]).includes(payload.category)
    ? (payload.category as MailCategory)
    : "notice";
}
