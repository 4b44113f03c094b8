/**
 * The suppression list (decision 041): addresses that get no mail they did not just ask for,
 * each named by a keyed hash, so an address stays suppressed after its entry is erased without the
 * address being kept. What a suppression stops is server/mail/suppression-policy.ts; this module
 * keeps the list, and turns what comes back about a mail (a refusal, a bounce, a complaint, an
 * unsubscribe) into events and, where they call for one, a suppression.
 *
 * The key is derived from ERASURE_KEY (the erasure ledger's key, kept in DATA_DIR when not set),
 * one per key given: lookups try each, writes use the newest, so rotating the key loses nothing.
 */
import { createHmac, createSecretKey, type KeyObject } from "node:crypto";
import { sql } from "drizzle-orm";
import { queryRows, type Db } from "#db/client.ts";
import type { MAIL_EVENT_KINDS, SUPPRESSION_REASONS, SUPPRESSION_SCOPES } from "#db/schema.ts";
import type { MailStopLedger } from "#server/audit/mail-stop-ledger.ts";
import { stoppedBy, type MailCategory, type Suppression } from "#server/mail/suppression-policy.ts";

type Scope = (typeof SUPPRESSION_SCOPES)[number];
type Reason = (typeof SUPPRESSION_REASONS)[number];
type EventKind = (typeof MAIL_EVENT_KINDS)[number];

/** Soft bounces within this many days that suppress an address. */
const SOFT_BOUNCE_LIMIT = { count: 3, days: 30 };

const normalised = (address: string) => address.trim().toLowerCase();

/**
 * One suppression key per erasure key, newest first: as KeyObjects, which an HMAC takes as they
 * are (from a Buffer, Node 24 makes one anew for every HMAC, about seven times the cost, decision 059).
 */
export function suppressionKeys(erasureKeys: readonly string[]): KeyObject[] {
  return erasureKeys.map((key) =>
    createSecretKey(createHmac("sha256", key).update("tieout mail suppression key").digest()),
  );
}

/** An address's hash under each key, as the list names it (HMAC-SHA256 of its lower case). */
export function suppressionHashes(keys: readonly KeyObject[], address: string): string[] {
  return keys.map((key) => createHmac("sha256", key).update(normalised(address)).digest("hex"));
}

export type SuppressionRow = {
  /** The address, or null once its entry was erased: then only a search by it finds the row. */
  address: string | null;
  scope: Scope;
  reason: Reason;
  detail: string;
  addedBy: string | null;
  createdAt: string;
};

export type Suppressions = ReturnType<typeof createSuppressions>;

export function createSuppressions({
  db,
  keys,
  ledger,
}: {
  db: Db;
  keys: readonly KeyObject[];
  /** Where each suppression is written down for a restore (server/audit/mail-stop-ledger.ts). */
  ledger: MailStopLedger;
}) {
  if (keys.length === 0) throw new Error("the suppression list needs a key");
  const hashesOf = (address: string) => suppressionHashes(keys, address);
  const hashList = (address: string) =>
    sql.join(
      hashesOf(address).map((hash) => sql`${hash}`),
      sql`, `,
    );

  /**
   * Adds a suppression; an address already suppressed for the scope keeps its first reason. The
   * only door onto the list: each one is written in the ledger a restore reads (decision 042),
   * before the transaction commits, so none is left out (one that then fails errs the safe way).
   */
  async function suppress(
    tx: Db,
    entry: { address: string; scope: Scope; reason: Reason; detail?: string; addedBy?: string },
  ): Promise<boolean> {
    const [hash] = hashesOf(entry.address);
    const rows = await queryRows<{ scope: string }>(
      tx,
      sql`
      INSERT INTO mail_suppressions (address_hash, scope, address, reason, detail, added_by)
      SELECT ${hash}, ${entry.scope}, ${normalised(entry.address)}, ${entry.reason},
        ${(entry.detail ?? "").slice(0, 500)}, ${entry.addedBy ?? null}
      WHERE NOT EXISTS (
        SELECT 1 FROM mail_suppressions
        WHERE address_hash IN (${hashList(entry.address)}) AND scope = ${entry.scope})
      ON CONFLICT (address_hash, scope) DO NOTHING
      RETURNING scope`,
    );
    if (rows.length === 0) return false;
    ledger.record({ key: keys[0]!, subject: hash!, scope: entry.scope, reason: entry.reason });
    return true;
  }

  return {
    suppress,

    /** Takes an address off the list for one scope, or every scope; resolves with how many. */
    async lift(tx: Db, address: string, scope: Scope | "every"): Promise<number> {
      const rows = await queryRows<{ scope: string }>(
        tx,
        sql`
        DELETE FROM mail_suppressions
        WHERE address_hash IN (${hashList(address)})
          ${scope === "every" ? sql`` : sql`AND scope = ${scope}`}
        RETURNING scope`,
      );
      return rows.length;
    },

    /**
     * The suppressions of these addresses (a mail's recipients), as the policy reads them; in the
     * caller's transaction when given one (the embedded database has a single connection).
     */
    async of(addresses: readonly string[], tx: Db = db): Promise<Suppression[]> {
      if (addresses.length === 0) return [];
      const hashes = sql.join(
        addresses.flatMap(hashesOf).map((hash) => sql`${hash}`),
        sql`, `,
      );
      return queryRows<Suppression>(
        tx,
        sql`SELECT scope, reason FROM mail_suppressions WHERE address_hash IN (${hashes})`,
      );
    },

    /**
     * The suppressions of many addresses at once (a turn of a broadcast, a batch of the outbox),
     * by each address in lower case: one query for all of them.
     */
    async byAddress(
      addresses: readonly string[],
      tx: Db = db,
    ): Promise<Map<string, Suppression[]>> {
      const found = new Map<string, Suppression[]>();
      if (addresses.length === 0) return found;
      const owner = new Map<string, string>();
      for (const address of addresses)
        for (const hash of hashesOf(address)) owner.set(hash, normalised(address));
      const rows = await queryRows<Suppression & { address_hash: string }>(
        tx,
        sql`SELECT address_hash, scope, reason FROM mail_suppressions
            WHERE address_hash IN (${sql.join(
              [...owner.keys()].map((hash) => sql`${hash}`),
              sql`, `,
            )})`,
      );
      for (const { address_hash, scope, reason } of rows) {
        const address = owner.get(address_hash)!;
        found.set(address, [...(found.get(address) ?? []), { scope, reason }]);
      }
      return found;
    },

    /** The suppression that stops a mail of `category` to these addresses now, or null. */
    async stopping(addresses: readonly string[], category: MailCategory, tx: Db = db) {
      return stoppedBy(category, await this.of(addresses, tx));
    },

    /**
     * What an erasure leaves of the address here: its suppressions, by hash alone (the clear
     * address goes). Run in the erasure's transaction.
     */
    async forget(tx: Db, address: string): Promise<void> {
      await tx.execute(sql`
        UPDATE mail_suppressions SET address = NULL WHERE address_hash IN (${hashList(address)})`);
    },

    /**
     * The list, newest first: all of it, or what a search finds. A search with an address finds
     * it by its hash too, so an erased address can still be looked up by someone who knows it.
     */
    async list({
      search,
      limit,
    }: {
      search?: string;
      limit: number;
    }): Promise<{ rows: SuppressionRow[]; total: number }> {
      const term = search?.trim() ?? "";
      const where =
        term === ""
          ? sql`TRUE`
          : term.includes("@")
            ? sql`(address_hash IN (${hashList(term)}) OR address ILIKE ${`%${term}%`})`
            : sql`address ILIKE ${`%${term.replaceAll("%", "\\%").replaceAll("_", "\\_")}%`}`;
      const [rows, [total]] = await Promise.all([
        queryRows<SuppressionRow & { createdAt: Date }>(
          db,
          sql`
          SELECT address, scope, reason, detail, added_by AS "addedBy", created_at AS "createdAt"
          FROM mail_suppressions WHERE ${where}
          ORDER BY created_at DESC, address_hash LIMIT ${limit}`,
        ),
        queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM mail_suppressions`),
      ]);
      return {
        rows: rows.map((row) => ({ ...row, createdAt: new Date(row.createdAt).toISOString() })),
        total: total?.n ?? 0,
      };
    },

    /**
     * Records what came back about a mail, in the caller's transaction, and suppresses where it
     * calls for it: a refusal or a hard bounce (every mail but those asked for stops, and those
     * too), a complaint, three soft bounces within 30 days. An unsubscribe is recorded only: the
     * consent it withdraws is the entry's, and its own suppression is added by who handles it.
     */
    async record(
      tx: Db,
      event: { outboxId: number | null; address: string; kind: EventKind; detail?: string },
    ): Promise<{ suppressed: Reason | null }> {
      const [hash] = hashesOf(event.address);
      const detail = (event.detail ?? "").slice(0, 500);
      await tx.execute(sql`
        INSERT INTO mail_events (outbox_id, address_hash, kind, detail)
        VALUES (${event.outboxId}, ${hash}, ${event.kind}, ${detail})`);
      let reason: Reason | null = null;
      if (event.kind === "refused" || event.kind === "hard-bounce" || event.kind === "complaint")
        reason = event.kind;
      if (event.kind === "soft-bounce") {
        const [recent] = await queryRows<{ n: number }>(
          tx,
          sql`
          SELECT count(*)::int AS n FROM mail_events
          WHERE address_hash IN (${hashList(event.address)}) AND kind = 'soft-bounce'
            AND at > now() - make_interval(days => ${SOFT_BOUNCE_LIMIT.days})`,
        );
        if ((recent?.n ?? 0) >= SOFT_BOUNCE_LIMIT.count) reason = "soft-bounces";
      }
      if (reason === null) return { suppressed: null };
      await suppress(tx, { address: event.address, scope: "all", reason, detail });
      return { suppressed: reason };
    },
  };
}
