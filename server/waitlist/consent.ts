/**
 * Consent to each kind of broadcast (decision 041), kept on the entry as it stands and, in
 * consent_events, as it came to be: which kind, given or withdrawn, when and where.
 *
 * - Waitlist news (about the beta and the person's place in it) goes to confirmed entries unless
 *   they stopped it; stopping it never removes the entry.
 * - Product news goes only to those who ticked the unticked box that offers it, on the
 *   confirmation page or on /account.
 *
 * The unsubscribe link in a broadcast names the entry, the kind and the broadcast, and is signed
 * rather than stored: it works for as long as the entry is there, however often it is pressed,
 * and a restore cannot bring back a link that had ended, because none ends.
 */
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from "node:crypto";
import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import {
  consentEvents,
  waitlistEntries,
  type BROADCAST_KINDS,
  type CONSENT_PLACES,
} from "#db/schema.ts";

export type BroadcastKind = (typeof BROADCAST_KINDS)[number];
type Place = (typeof CONSENT_PLACES)[number];

/**
 * Records a change of consent in the caller's transaction. Resolves true when it changed anything:
 * giving what was given, or withdrawing what was not, writes nothing.
 */
export async function setConsent(
  tx: Db,
  change: { entryId: number; kind: BroadcastKind; given: boolean; place: Place },
): Promise<boolean> {
  const { entryId, kind, given, place } = change;
  const entry = eq(waitlistEntries.id, entryId);
  const changed =
    kind === "product-news"
      ? await tx
          .update(waitlistEntries)
          .set({ productNewsAt: given ? sql`now()` : null })
          .where(
            and(
              entry,
              given
                ? isNull(waitlistEntries.productNewsAt)
                : isNotNull(waitlistEntries.productNewsAt),
            ),
          )
          .returning({ id: waitlistEntries.id })
      : await tx
          .update(waitlistEntries)
          .set({ waitlistNewsStoppedAt: given ? null : sql`now()` })
          .where(
            and(
              entry,
              given
                ? isNotNull(waitlistEntries.waitlistNewsStoppedAt)
                : isNull(waitlistEntries.waitlistNewsStoppedAt),
            ),
          )
          .returning({ id: waitlistEntries.id });
  if (changed.length === 0) return false;
  await tx.insert(consentEvents).values({ entryId, kind, given, place });
  return true;
}

const KIND_LETTER: Record<BroadcastKind, string> = { "waitlist-news": "w", "product-news": "p" };
const TOKEN = /^([0-9a-z]{1,11})\.([wp])\.([0-9a-z]{1,11})\.([0-9a-f]{24})$/;

export type UnsubscribeLink = { entryId: number; kind: BroadcastKind; broadcastId: number };

/** The unsubscribe link key, derived from a secret the site keeps (ERASURE_KEY's newest). */
export function unsubscribeKey(secret: string): KeyObject {
  return createSecretKey(
    createHmac("sha256", secret).update("tieout unsubscribe link key").digest(),
  );
}

const macOf = (key: KeyObject, link: UnsubscribeLink) =>
  createHmac("sha256", key)
    .update(`unsubscribe\n${link.entryId}\n${link.kind}\n${link.broadcastId}`)
    .digest("hex")
    .slice(0, 24);

/** The token of a broadcast's unsubscribe link: entry, kind and broadcast, and 96 bits of MAC. */
export function unsubscribeToken(key: KeyObject, link: UnsubscribeLink): string {
  return [
    link.entryId.toString(36),
    KIND_LETTER[link.kind],
    link.broadcastId.toString(36),
    macOf(key, link),
  ].join(".");
}

/** What a token names, when this site made it; null for anything else. */
export function readUnsubscribeToken(key: KeyObject, token: string): UnsubscribeLink | null {
  const parts = TOKEN.exec(token);
  if (!parts) return null;
  const [, entry = "", letter = "", broadcast = "", mac = ""] = parts;
  const link: UnsubscribeLink = {
    entryId: Number.parseInt(entry, 36),
    kind: letter === "w" ? "waitlist-news" : "product-news",
    broadcastId: Number.parseInt(broadcast, 36),
  };
  // One spelling per link: no leading zeros.
  if (link.entryId.toString(36) !== entry || link.broadcastId.toString(36) !== broadcast)
    return null;
  const expected = Buffer.from(macOf(key, link));
  return timingSafeEqual(expected, Buffer.from(mac)) ? link : null;
}
