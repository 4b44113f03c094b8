/**
 * The admin's actions on waitlist entries (decision 024): invite, resend, decline, remove, on one
 * entry or on those selected. One transaction per request holds everything it changes: each
 * entry's new state (as src/features/waitlist/lifecycle.ts allows it), the invitation tokens, the
 * mails in the outbox (decision 022) and one audit row per entry. Either all of it commits or none.
 * Entries are locked while they are read, so two admins pressing Invite at once send one mail.
 */
import { enqueueWebhookEvents, entryData } from "#server/webhooks/events.ts";
import { and, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { queryRows, type Db } from "#db/client.ts";
import { waitlistEntries, waitlistTokens, type WaitlistRow } from "#db/schema.ts";
import { recordAudit, type AuditRecord } from "#server/audit/audit-log.ts";
import type { Env } from "#server/env.ts";
import { renderWaitlistDeclined } from "#server/mail/templates/waitlist-declined.tsx";
import { renderWaitlistInvite } from "#server/mail/templates/waitlist-invite.tsx";
import { enqueue, type OutboxMessage } from "#server/outbox/outbox.ts";
import { mailToEntry, siteLink } from "#server/waitlist/entry-mail.ts";
import type { ErasureLedger } from "#server/audit/erasure-ledger.ts";
import { adminMailKey, eraseEntries } from "#server/waitlist/erasure.ts";
import { lifecycleOf } from "#server/waitlist/lifecycle-of.ts";
import { inviteTokenRow, newToken, storeTokens, type TokenRow } from "#server/waitlist/tokens.ts";
import { transition, type LifecycleEvent } from "#src/features/waitlist/lifecycle.ts";
import type {
  ActionOutcome,
  AdminActionRequest,
  AdminActionResult,
  AdminMeta,
} from "#src/features/waitlist/types.ts";

/** Ends the entry's invitation links that still work: a fresh one, or a decline, replaces them. */
export async function endInvitations(tx: Db, entryId: number): Promise<void> {
  await tx
    .update(waitlistTokens)
    .set({ expiresAt: sql`now()` })
    .where(
      and(
        eq(waitlistTokens.entryId, entryId),
        eq(waitlistTokens.purpose, "invite"),
        isNull(waitlistTokens.usedAt),
        gt(waitlistTokens.expiresAt, sql`now()`),
      ),
    );
}

export function createAdminActions({
  db,
  env,
  log,
  ledger,
  enqueued,
}: {
  db: Db;
  env: Env;
  log: FastifyBaseLogger;
  ledger: ErasureLedger;
  /** Told when the outbox has new rows, so the worker sends them at once. */
  enqueued: () => void;
}) {
  /** The invitation mail for the entry's n-th admin mail, with its fresh token. */
  function invitation(row: WaitlistRow, n: number, tokens: TokenRow[]): OutboxMessage {
    const token = newToken();
    tokens.push(inviteTokenRow(row.id, token, env.inviteTtlDays));
    return mailToEntry(
      env,
      row,
      adminMailKey(row.id, n),
      "notice",
      (footer) =>
        renderWaitlistInvite({
          ...footer,
          name: row.name,
          signupUrl: siteLink(env, `/signup?invite=${token}`),
          days: env.inviteTtlDays,
        }),
      tokens,
    );
  }

  /** One entry's change under the action, inside the transaction; what came of it. */
  async function apply(
    tx: Db,
    row: WaitlistRow,
    request: AdminActionRequest,
    now: Date,
    out: { tokens: TokenRow[]; messages: OutboxMessage[] },
  ): Promise<ActionOutcome> {
    const event: LifecycleEvent =
      request.action === "resend"
        ? { type: "resend", now: now.getTime() }
        : { type: request.action as "invite" | "decline" };
    const next = transition(lifecycleOf(row), event);
    if (!next.ok) return next.refusal;
    const n = row.adminMails + 1;

    if (request.action === "decline") {
      await endInvitations(tx, row.id);
      const asked = request.tell.includes(row.id);
      // A mail only when asked for, and never to an address its owner did not confirm.
      const told = asked && row.confirmedAt !== null;
      if (told)
        out.messages.push(
          mailToEntry(
            env,
            row,
            adminMailKey(row.id, n),
            "notice",
            (footer) => renderWaitlistDeclined({ ...footer, name: row.name }),
            out.tokens,
          ),
        );
      const [declined] = await tx
        .update(waitlistEntries)
        .set({ state: "declined", declinedAt: sql`now()`, adminMails: told ? n : row.adminMails })
        .where(eq(waitlistEntries.id, row.id))
        .returning();
      if (declined)
        await enqueueWebhookEvents(tx, [{ type: "entry.declined", data: entryData(declined) }]);
      return told ? "declined-told" : asked ? "declined-not-told" : "declined";
    }

    // Invite and resend: a fresh link ends the one before it.
    await endInvitations(tx, row.id);
    out.messages.push(invitation(row, n, out.tokens));
    const [invited] = await tx
      .update(waitlistEntries)
      .set({
        state: "invited",
        invitedAt: request.action === "invite" ? sql`now()` : row.invitedAt,
        inviteSentAt: sql`now()`,
        adminMails: n,
      })
      .where(eq(waitlistEntries.id, row.id))
      .returning();
    if (invited)
      await enqueueWebhookEvents(tx, [{ type: "entry.invited", data: entryData(invited) }]);
    return request.action === "invite" ? "invited" : "resent";
  }

  return async function act(
    request: AdminActionRequest,
    meta: AdminMeta,
  ): Promise<AdminActionResult> {
    const ids = [...new Set(request.ids)].sort((a, b) => a - b);
    const out = { tokens: [] as TokenRow[], messages: [] as OutboxMessage[] };
    const erasedAddresses: string[] = [];
    try {
      const outcomes = await db.transaction(async (tx) => {
        const byId = new Map<number, ActionOutcome>();
        if (request.action === "remove") {
          const erased = await eraseEntries(tx, ids);
          const erasedIds = new Set(erased.map((e) => e.id));
          for (const id of ids) byId.set(id, erasedIds.has(id) ? "removed" : "gone");
          erasedAddresses.push(...erased.map((e) => e.email));
        } else {
          const [clock] = await queryRows<{ now: Date | string }>(tx, sql`SELECT now() AS now`);
          const now = new Date(clock!.now);
          const rows = await tx
            .select()
            .from(waitlistEntries)
            .where(inArray(waitlistEntries.id, ids))
            .orderBy(waitlistEntries.id)
            .for("update");
          const found = new Map(rows.map((row) => [row.id, row]));
          for (const id of ids) {
            const row = found.get(id);
            byId.set(id, row ? await apply(tx, row, request, now, out) : "gone");
          }
          await storeTokens(tx, out.tokens);
          await enqueue(tx, out.messages);
        }
        await recordAudit(
          tx,
          ids.map((id): AuditRecord => ({
            adminEmail: meta.adminEmail,
            action: request.action,
            entryId: id,
            outcome: byId.get(id)!,
            clientAddress: meta.clientAddress,
          })),
        );
        return [...byId.values()];
      });
      if (out.messages.length > 0) enqueued();
      ledger.record(
        erasedAddresses.map((email) => ({ scope: "waitlist entry", addresses: [email] })),
      );
      const counts: Partial<Record<ActionOutcome, number>> = {};
      for (const outcome of outcomes) counts[outcome] = (counts[outcome] ?? 0) + 1;
      log.info(
        { event: `admin.${request.action}`, reqId: meta.requestId, outcomes: counts },
        "admin action",
      );
      return { kind: "done", action: request.action, outcomes: counts };
    } catch (error) {
      log.error(
        { err: error, event: "admin.action_failed", reqId: meta.requestId },
        "admin action failed: database unavailable",
      );
      return { kind: "unavailable" };
    }
  };
}
