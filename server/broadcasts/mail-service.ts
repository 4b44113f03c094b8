/**
 * The site's mail to the list as the pages use it (src/lib/mail-ports.ts, decision 041):
 * unsubscribing by a broadcast's link, the suppression list as administrators keep it, and the
 * broadcasts. Each change an administrator makes is an Activity row in its own transaction.
 */
import type { KeyObject } from "node:crypto";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { queryRows, type Db } from "#db/client.ts";
import { recordAudit } from "#server/audit/audit-log.ts";
import { createMailStopLedger } from "#server/audit/mail-stop-ledger.ts";
import { previewBroadcast } from "#server/broadcasts/broadcast-mail.ts";
import { checkDraft, createBroadcasts, type Broadcasts } from "#server/broadcasts/broadcasts.ts";
import { maskEmail } from "#server/http/log-safety.ts";
import {
  createSuppressions,
  suppressionKeys,
  type Suppressions,
} from "#server/mail/suppressions.ts";
import type { Env } from "#server/env.ts";
import { readUnsubscribeToken, setConsent, unsubscribeKey } from "#server/waitlist/consent.ts";
import { answersLinkKey, answersToken } from "#server/waitlist/answers-link.ts";
import type { MailPort, PreferenceOwner } from "#src/lib/mail-ports.ts";

const ADDRESS = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;

function createMailService(deps: {
  db: Db;
  suppressions: Suppressions;
  broadcasts: Broadcasts;
  unsubscribeKey: KeyObject;
}): MailPort {
  const { db, suppressions, broadcasts } = deps;

  /** The entry an unsubscribe token names, while it is there. */
  async function entryOf(token: string) {
    const link = readUnsubscribeToken(deps.unsubscribeKey, token);
    if (!link) return null;
    const [entry] = await queryRows<{ id: number; email: string }>(
      db,
      sql`SELECT id, email FROM waitlist_entries WHERE id = ${link.entryId}`,
    );
    return entry ? { link, entry: { id: Number(entry.id), email: entry.email } } : null;
  }

  /** The entry an account holds: the one it joined from, else the one under its verified address. */
  async function entryOfAccount(owner: PreferenceOwner, tx: Db = db) {
    const [entry] = await queryRows<{
      id: number;
      email: string;
      product_news_at: Date | null;
      waitlist_news_stopped_at: Date | null;
    }>(
      tx,
      sql`SELECT id, email, product_news_at, waitlist_news_stopped_at FROM waitlist_entries
          WHERE joined_uid = ${owner.uid}
            OR (${owner.emailVerified} AND lower(email) = lower(${owner.email ?? ""}))
          ORDER BY (joined_uid = ${owner.uid}) DESC NULLS LAST, id LIMIT 1`,
    );
    return entry ?? null;
  }

  return {
    async bounceReports(limit) {
      // The last 30 days, as the page says; housekeeping deletes what is older.
      const recent = sql`now() - interval '30 days'`;
      const rows = await queryRows<{
        id: number;
        received_at: Date;
        via: "imap" | "smtp";
        outcome: "recorded" | "unmatched" | "unparsed";
        kind: string | null;
        detail: string;
        raw: string | null;
      }>(
        db,
        sql`SELECT id, received_at, via, outcome, kind, detail, raw FROM bounce_reports
            WHERE received_at > ${recent}
            ORDER BY (outcome <> 'recorded') DESC, received_at DESC, id DESC LIMIT ${limit}`,
      );
      const [counted] = await queryRows<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM bounce_reports
            WHERE outcome <> 'recorded' AND received_at > ${recent}`,
      );
      return {
        rows: rows.map((row) => ({
          id: Number(row.id),
          receivedAt: new Date(row.received_at).toISOString(),
          via: row.via,
          outcome: row.outcome,
          kind: row.kind,
          detail: row.detail,
          raw: row.raw,
        })),
        needsReading: counted?.n ?? 0,
      };
    },

    async preferencesOf(owner) {
      const entry = await entryOfAccount(owner);
      return entry
        ? {
            productNews: entry.product_news_at !== null,
            waitlistNews: entry.waitlist_news_stopped_at === null,
          }
        : null;
    },

    async setPreferences(owner, wanted) {
      return db.transaction(async (tx) => {
        const entry = await entryOfAccount(owner, tx);
        if (!entry) return false;
        for (const [kind, given] of [
          ["waitlist-news", wanted.waitlistNews],
          ["product-news", wanted.productNews],
        ] as const) {
          const changed = await setConsent(tx, {
            entryId: Number(entry.id),
            kind,
            given,
            place: "account",
          });
          // Asked for again: the kind's unsubscribe no longer stands. A suppression of every mail
          // (a bounce, a complaint, an administrator's) stays.
          if (changed && given) await suppressions.lift(tx, entry.email, kind);
          // Withdrawn here is withdrawn as by a mail's link: the kind stops for the address, and
          // the ledger a restore reads says so (decision 042).
          if (changed && !given)
            await suppressions.suppress(tx, {
              address: entry.email,
              scope: kind,
              reason: "unsubscribe",
              detail: "on /account",
            });
        }
        return true;
      });
    },

    async checkUnsubscribe(token) {
      const found = await entryOf(token);
      return found
        ? { maskedEmail: maskEmail(found.entry.email) ?? "your address", news: found.link.kind }
        : null;
    },

    async unsubscribe(token, place) {
      const found = await entryOf(token);
      if (!found) return { kind: "gone" };
      const { link, entry } = found;
      await db.transaction(async (tx) => {
        const changed = await setConsent(tx, {
          entryId: entry.id,
          kind: link.kind,
          given: false,
          place,
        });
        // The kind stays stopped for the address, whatever becomes of the entry (decision 041).
        await suppressions.suppress(tx, {
          address: entry.email,
          scope: link.kind,
          reason: "unsubscribe",
          detail: place === "one-click" ? "one-click from the mail client" : "unsubscribe page",
        });
        if (changed) {
          const [recipient] = await queryRows<{ outbox_id: number | null }>(
            tx,
            sql`SELECT outbox_id FROM broadcast_recipients
                WHERE broadcast_id = ${link.broadcastId} AND entry_id = ${entry.id}`,
          );
          await suppressions.record(tx, {
            outboxId: recipient?.outbox_id === undefined ? null : Number(recipient.outbox_id),
            address: entry.email,
            kind: "unsubscribe",
            detail: link.kind,
          });
        }
      });
      return { kind: "unsubscribed", news: link.kind };
    },

    broadcasts: {
      list: () => broadcasts.list(),
      async get(id) {
        return broadcasts.get(id);
      },
      progress: (id) => broadcasts.progress(id),
      count: (kind, audience) => broadcasts.count(kind, audience),
      preview: (draft) => previewBroadcast(draft),
      async save(id, input, actor) {
        const checked = checkDraft(input);
        if (!checked.ok) return checked;
        if (id === null) return { ok: true, id: await broadcasts.create(checked.draft, actor) };
        const updated = await broadcasts.update(id, checked.draft);
        return updated.ok ? { ok: true, id } : updated;
      },
      testSend: (id, actor) => broadcasts.testSend(id, actor),
      start: (id, actor, at) => broadcasts.start(id, actor, at),
      pause: (id, actor) => broadcasts.pause(id, actor),
      resume: (id, actor) => broadcasts.resume(id, actor),
      cancel: (id, actor) => broadcasts.cancel(id, actor),
    },

    suppressions: {
      list: (options) => suppressions.list(options),

      async add({ address, detail }, actor) {
        const clean = address.trim().toLowerCase();
        if (!ADDRESS.test(clean) || clean.length > 254)
          return { ok: false, field: "address", message: "Enter an email address." };
        if (detail.trim() === "")
          return { ok: false, field: "detail", message: "Say why it is suppressed." };
        const added = await db.transaction(async (tx) => {
          const done = await suppressions.suppress(tx, {
            address: clean,
            scope: "all",
            reason: "admin",
            detail: detail.trim(),
            addedBy: actor.adminEmail,
          });
          await recordAudit(tx, [
            {
              ...actor,
              action: "suppression-add",
              entryId: null,
              outcome: done
                ? `${maskEmail(clean)}: ${detail.trim().slice(0, 200)}`
                : "already suppressed",
            },
          ]);
          return done;
        });
        return { ok: true, added };
      },

      async remove({ address, detail }, actor) {
        const clean = address.trim().toLowerCase();
        if (!ADDRESS.test(clean))
          return { ok: false, field: "address", message: "Enter an email address." };
        if (detail.trim() === "")
          return {
            ok: false,
            field: "detail",
            message: "Say why this address may be mailed again.",
          };
        const removed = await db.transaction(async (tx) => {
          const n = await suppressions.lift(tx, clean, "every");
          await recordAudit(tx, [
            {
              ...actor,
              action: "suppression-remove",
              entryId: null,
              outcome: `${maskEmail(clean)}: ${n} removed; ${detail.trim().slice(0, 200)}`,
            },
          ]);
          return n;
        });
        return { ok: true, removed };
      },
    },
  };
}

/**
 * The suppression list, the broadcasts and the pages' port over them, from the site's kept secret
 * (ERASURE_KEY or its file, newest first): what services.ts opens, and tests the same way.
 */
export function openMail(deps: {
  db: Db;
  env: Env;
  log: FastifyBaseLogger;
  secrets: readonly string[];
  onEnqueued: () => void;
}) {
  const suppressions = createSuppressions({
    db: deps.db,
    keys: suppressionKeys(deps.secrets),
    ledger: createMailStopLedger(deps.log),
  });
  const key = unsubscribeKey(deps.secrets[0] ?? "");
  const answersKey = answersLinkKey(deps.secrets[0] ?? "");
  const broadcasts = createBroadcasts({
    ...deps,
    suppressions,
    unsubscribeKey: key,
    answersToken: (entry) => answersToken(answersKey, entry),
  });
  const port = createMailService({ db: deps.db, suppressions, broadcasts, unsubscribeKey: key });
  return { suppressions, broadcasts, port };
}
