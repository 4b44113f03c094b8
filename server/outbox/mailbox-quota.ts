/**
 * How many confirmation mails one mailbox may be sent in a day by each form (the waitlist,
 * sub-processor notices, privacy requests). Anyone can type anyone's address into a form; without
 * a bound, a script could fill a person's inbox with our mail by varying a `+tag` or a Gmail dot,
 * and mail providers would learn to file everything from us as spam. Each form has a window of its
 * own, so what is typed into one form can never use up the mail another form owes the owner. See
 * docs/decisions/031 and 036.
 */
import { createHash } from "node:crypto";
import type { Db } from "#db/client.ts";
import { sql } from "drizzle-orm";
import { countToday, DAILY_KEY_PREFIX } from "#server/http/rate-limit.ts";

const CONFIRMATION_MAILS_PER_MAILBOX_PER_DAY = 3;

/** The forms that mail a link to confirm an address; each counts in a window of its own. */
const CONFIRMATION_PURPOSES = ["waitlist", "subprocessors", "privacy"] as const;
export type ConfirmationPurpose = (typeof CONFIRMATION_PURPOSES)[number];

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

/** The name of a form's daily window for a mailbox: the form and the mailbox's hash, never the address. */
export const windowKey = (purpose: ConfirmationPurpose, address: string) =>
  `confirmation-mail:${purpose}:${createHash("sha256").update(mailboxOf(address)).digest("base64url")}`;

/**
 * Forgets the mailbox's counts for the day, every form's: what a confirmed deletion of everything
 * held under the address erases too (the counts are kept under the mailbox's hash, but they are
 * the mailbox's).
 */
export async function forgetMailbox(tx: Db, address: string): Promise<void> {
  const keys = CONFIRMATION_PURPOSES.map(
    (purpose) => DAILY_KEY_PREFIX + windowKey(purpose, address),
  );
  await tx.execute(
    sql`DELETE FROM rate_limit_windows WHERE key IN (${sql.join(
      keys.map((key) => sql`${key}`),
      sql`, `,
    )})`,
  );
}

/**
 * Counts one submission of `purpose`'s form for each address's mailbox today, in one statement;
 * for each address, in order, whether a confirmation mail may go (false once that form's allowance
 * for the mailbox is spent for the day: mail to it is paused until the next UTC day). Call it in
 * the transaction that enqueues the mails, so the count and the mails commit together, and call it
 * for every submission, before looking at whether the address is known: the answer then depends on
 * how often the mailbox was asked for today, never on whether it is on a list (decision 036). The
 * windows hold a hash of the mailbox, never the address.
 */
export async function takeConfirmationMails(
  tx: Db,
  purpose: ConfirmationPurpose,
  addresses: readonly string[],
): Promise<boolean[]> {
  const keys = addresses.map((address) => windowKey(purpose, address));
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
export async function takeConfirmationMail(
  tx: Db,
  purpose: ConfirmationPurpose,
  address: string,
): Promise<boolean> {
  const [allowed] = await takeConfirmationMails(tx, purpose, [address]);
  return allowed === true;
}

/** Whole seconds until the day's windows close (the next midnight UTC): a paused form's Retry-After. */
export function secondsUntilTomorrow(now = new Date()): number {
  const tomorrow = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((tomorrow - now.getTime()) / 1000));
}
