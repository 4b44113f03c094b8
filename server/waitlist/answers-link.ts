/**
 * The link to a person's qualifying answers (decision 043): the confirmation page's form and the
 * link in later waitlist mail. Unlike a confirm or remove link it is not spent: its owner may come
 * back and change their answers until it expires. It is made, not stored, so a send of thousands
 * writes nothing for it: the entry's id, the day it stops working, and a MAC under a key derived
 * from the site's secret over those and the entry's address. The address is in the MAC, so a link
 * never opens another person's entry: not after its own was erased, and not after a restore gave
 * its id to someone new.
 */
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from "node:crypto";

const DAY_MS = 24 * 60 * 60 * 1000;

/** How long a link works after the mail or page that carried it. */
export const ANSWERS_LINK_DAYS = 90;

/** The link key, derived from a secret the site keeps (ERASURE_KEY's). */
export function answersLinkKey(secret: string): KeyObject {
  return createSecretKey(createHmac("sha256", secret).update("tieout answers link key").digest());
}

const TOKEN = /^([0-9a-z]{1,11})\.([0-9a-z]{1,5})\.([0-9a-f]{32})$/;

const macOf = (key: KeyObject, entryId: number, email: string, lastDay: number) =>
  createHmac("sha256", key)
    .update(`answers\n${entryId}\n${email.trim().toLowerCase()}\n${lastDay}`)
    .digest("hex")
    .slice(0, 32);

/** The token for entry `entryId` at `email`, working for ANSWERS_LINK_DAYS from `now`. */
export function answersToken(
  key: KeyObject,
  entry: { id: number; email: string },
  now = Date.now(),
): string {
  const lastDay = Math.floor(now / DAY_MS) + ANSWERS_LINK_DAYS;
  return [
    entry.id.toString(36),
    lastDay.toString(36),
    macOf(key, entry.id, entry.email, lastDay),
  ].join(".");
}

/**
 * The entry a token names, while it works: its MAC is checked later, against the address of the
 * entry it names (`verifyAnswersToken`). Null for anything this site never wrote or that expired.
 */
export function readAnswersToken(
  token: unknown,
  now = Date.now(),
): { entryId: number; lastDay: number; mac: string } | null {
  if (typeof token !== "string") return null;
  const parts = TOKEN.exec(token);
  if (!parts) return null;
  const [, entry = "", day = "", mac = ""] = parts;
  const entryId = Number.parseInt(entry, 36);
  const lastDay = Number.parseInt(day, 36);
  // One spelling per link: no leading zeros.
  if (entryId.toString(36) !== entry || lastDay.toString(36) !== day) return null;
  if (Math.floor(now / DAY_MS) > lastDay) return null;
  return { entryId, lastDay, mac };
}

/** Whether a read token was made for this entry's address under one of `keys`. */
export function verifyAnswersToken(
  keys: readonly KeyObject[],
  read: { entryId: number; lastDay: number; mac: string },
  email: string,
): boolean {
  const given = Buffer.from(read.mac);
  return keys.some((key) =>
    timingSafeEqual(Buffer.from(macOf(key, read.entryId, email, read.lastDay)), given),
  );
}
