/**
 * Referrals, as a signal only (decision 045). Every entry has a code of its own (random, stored
 * with it: db/migrations/0021), and the page that thanks a person, and the one that confirms their
 * address, offer the link that carries it. An entry made through such a link records who shared
 * it. Nothing reads it to place anyone in the queue. Imports nothing: this runs on every page.
 */

/** The link's parameter, read with the campaign's from the page a visit began on. */
export const REFERRAL_PARAM = "ref";

const CODE = /^[0-9a-f]{16}$/;

/** The code a value spells, or null: a code is 16 hexadecimal characters, read in any case. */
export function referralCodeOf(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const code = value.trim().toLowerCase();
  return CODE.test(code) ? code : null;
}

/** The link an entry shares: the waitlist's page, where the form is, with the entry's code. */
export const shareLinkOf = (siteUrl: string, code: string): string =>
  `${siteUrl}/waitlist?${REFERRAL_PARAM}=${code}`;
