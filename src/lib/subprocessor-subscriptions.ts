/**
 * The email subscription to sub-processor changes, as the pages see it (decision 025): subscribe
 * on /subprocessors, confirm or unsubscribe behind the links in its mail. Served on the server by
 * server/subprocessors/subscriptions.ts.
 */

/** Who is asking: the rate-limit key, and the request id that ties log lines together. */
type SubscriptionMeta = { clientKey: string; requestId: string };

/**
 * A new address and one already subscribed get the same answer, so nobody learns who subscribes.
 * "invalid" carries the sentence shown under the email field. "paused": the mailbox has had its
 * confirmation mails from this form for today, decided before the address is looked up, so a new
 * and a known address get it alike (decision 036); nothing is written or sent.
 */
export type SubscribeResult =
  | { kind: "accepted" }
  | { kind: "paused"; retryAfterSeconds: number }
  | { kind: "invalid"; message: string }
  | { kind: "rate-limited"; retryAfterSeconds: number }
  | { kind: "unavailable" };

export type SubscriptionLinkPurpose = "confirm" | "unsubscribe";

/** What pressing the button behind a subscription mail's link did. */
export type SubscriptionLinkResult =
  { kind: "confirmed" } | { kind: "unsubscribed" } | { kind: "gone" } | { kind: "unavailable" };

export type SubscriptionsPort = {
  subscribe: (email: string, meta: SubscriptionMeta) => Promise<SubscribeResult>;
  /** Whose link this is (the address masked) while it still works; null otherwise. Reads only. */
  checkLink: (
    purpose: SubscriptionLinkPurpose,
    token: string,
  ) => Promise<{ maskedEmail: string } | null>;
  /** Uses the link once: confirms the subscription, or erases it. */
  useLink: (
    purpose: SubscriptionLinkPurpose,
    token: string,
    meta: SubscriptionMeta,
  ) => Promise<SubscriptionLinkResult>;
};
