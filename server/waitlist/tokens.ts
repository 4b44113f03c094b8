/**
 * The tokens behind the links in waitlist mail (decision 023): 256 random bits, sent only in the
 * mail, stored only as their SHA-256, one purpose each, single use, with an expiry.
 */
import { createHash, randomBytes } from "node:crypto";
import type { WAITLIST_TOKEN_PURPOSES } from "#db/schema.ts";

export type TokenPurpose = (typeof WAITLIST_TOKEN_PURPOSES)[number];

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * How long a link works. A confirmation is asked for now; the removal link must keep working for
 * as long as someone may still read the mail, and every later mail carries a fresh one. An
 * invitation works for INVITE_TTL_DAYS (`inviteTokenRow`).
 */
export const TOKEN_LIFETIME_MS: Record<Exclude<TokenPurpose, "invite">, number> = {
  confirm: 14 * DAY_MS,
  remove: 365 * DAY_MS,
};

/** What a link carries: 32 random bytes, base64url (43 characters, safe in a URL unescaped). */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** What the database keeps: the token's SHA-256 in hex. A token never leaves the mail otherwise. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** A token as a link may carry it: anything else is a bad link, answered before any query. */
export function isWellFormedToken(token: unknown): token is string {
  return typeof token === "string" && /^[A-Za-z0-9_-]{43}$/.test(token);
}

/** A token as stored: its hash, its entry, its purpose and when it stops working. */
export type TokenRow = {
  tokenHash: string;
  entryId: number;
  purpose: TokenPurpose;
  expiresAt: Date;
};

/** The row to store for a new token of `purpose`, issued `now`. */
export function tokenRow(
  entryId: number,
  purpose: Exclude<TokenPurpose, "invite">,
  token: string,
  now = new Date(),
): TokenRow {
  return {
    tokenHash: hashToken(token),
    entryId,
    purpose,
    expiresAt: new Date(now.getTime() + TOKEN_LIFETIME_MS[purpose]),
  };
}

/** The row to store for a new invitation, working `days` from `now`. */
export function inviteTokenRow(entryId: number, token: string, days: number, now = new Date()) {
  return {
    tokenHash: hashToken(token),
    entryId,
    purpose: "invite",
    expiresAt: new Date(now.getTime() + days * DAY_MS),
  } satisfies TokenRow;
}
