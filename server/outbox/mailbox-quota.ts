/**
 * How many confirmation mails one mailbox may be sent in a day, whatever form asked for them (the
 * waitlist, sub-processor notices, privacy requests). Anyone can type anyone's address into a
 * form; without a bound, a script could fill a person's inbox with our mail by varying a `+tag`
 * or a Gmail dot, and mail providers would learn to file everything from us as spam. See
 * docs/decisions/031.
 */
import { createHash } from "node:crypto";
import type { Db } from "#db/client.ts";
import { sql } from "drizzle-orm";
import { countToday, DAILY_KEY_PREFIX } from "#server/waitlist/rate-limit.ts";

const CONFIRMATION_MAILS_PER_MAILBOX_PER_DAY = 3;

/** Providers whose addresses ignore dots in the local part (and are one domain). */
const DOTLESS_DOMAINS: Readonly<Record<string, string>> = {
  "gmail.com": "gmail.com",
  "googlemail.com": "gmail.com",
};

/**
 * The inbox an address delivers to, as far as we can tell from the address: lower case, without a
 * `+tag`, and for Gmail without dots (`Dana.Reyes+tax@GoogleMail.com` is `danareyes@gmail.com`).
 */
export function mailboxOf(address: string): string {
  const at = address.lastIndexOf("@");
  if (at === -1) return address.toLowerCase();
  let local = address.slice(0, at).toLowerCase();
  let domain = address.slice(at + 1).toLowerCase();
  const plus = local.indexOf("+");
  if (plus > 0) local = local.slice(0, plus);
  const dotless = DOTLESS_DOMAINS[domain];
  if (dotless) {
    domain = dotless;
    local = local.replaceAll(".", "");
  }
  return `${local}@${domain}`;
}

/** The name of a mailbox's daily window: its hash, never the address. */
const windowKey = (address: string) =>
  `confirmation-mail:${createHash("sha256").update(mailboxOf(address)).digest("base64url")}`;

/**
 * Forgets the mailbox's count for the day: what a confirmed deletion of everything held under
 * the address erases too (the count is kept under the mailbox's hash, but it is the mailbox's).
 */
export async function forgetMailbox(tx: Db, address: string): Promise<void> {
  await tx.execute(
    sql`DELETE FROM rate_limit_windows WHERE key = ${DAILY_KEY_PREFIX + windowKey(address)}`,
  );
}

/**
 * Counts a confirmation mail to each address's mailbox today, in one statement; for each address,
 * in order, whether its mail may go (false once its mailbox's allowance for the day is spent). Call
 * it in the transaction that enqueues the mails, so the count and the mails commit together. The
 * windows hold a hash of the mailbox, never the address.
 */
export async function takeConfirmationMails(
  tx: Db,
  addresses: readonly string[],
): Promise<boolean[]> {
  const keys = addresses.map(windowKey);
  const asked = new Map<string, number>();
  for (const key of keys) asked.set(key, (asked.get(key) ?? 0) + 1);
  const counted = await countToday(tx, asked);
  // The first ones of a mailbox in this batch take what was left of its allowance.
  const taken = new Map<string, number>();
  return keys.map((key) => {
    const earlier = (counted.get(key)?.before ?? 0) + (taken.get(key) ?? 0);
    taken.set(key, (taken.get(key) ?? 0) + 1);
    return earlier < CONFIRMATION_MAILS_PER_MAILBOX_PER_DAY;
  });
}

/** `takeConfirmationMails` for one address. */
export async function takeConfirmationMail(tx: Db, address: string): Promise<boolean> {
  const [allowed] = await takeConfirmationMails(tx, [address]);
  return allowed === true;
}
