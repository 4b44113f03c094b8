/**
 * The tokens behind the links in waitlist mail (decision 023): 256 random bits, sent only in the
 * mail, stored only as their SHA-256, one purpose each, single use, with an expiry.
 */
import { createHash, randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "#db/client.ts";
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

/**
 * Stores new tokens' rows, however many, in one statement that does not change with their
 * number: the rows go as one JSON value (decision 061). A broadcast's turn stores ten at once, on
 * the thread that answers visitors, and a query builder walking each value held it for longer.
 */
export async function storeTokens(tx: Db, rows: readonly TokenRow[]): Promise<void> {
  if (rows.length === 0) return;
  const values = rows.map((row) => ({
    token_hash: row.tokenHash,
    entry_id: row.entryId,
    purpose: row.purpose,
    expires_at: row.expiresAt.toISOString(),
  }));
  await tx.execute(sql`
    INSERT INTO waitlist_tokens (token_hash, entry_id, purpose, expires_at)
    SELECT r.token_hash, r.entry_id, r.purpose, r.expires_at
    FROM jsonb_to_recordset(${JSON.stringify(values)}::jsonb)
      AS r(token_hash text, entry_id bigint, purpose text, expires_at timestamptz)`);
}
