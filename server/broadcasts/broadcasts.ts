/**
 * Broadcasts (decision 041): a draft the administrator writes, tests and starts; recipients fixed
 * when sending starts, one row per (broadcast, entry); mails handed to the outbox at the
 * configured rate, each in the same transaction that marks its recipient, under the key
 * `broadcast:<id>:<entry>`, so a person gets a broadcast at most once whatever crashes, restarts
 * or second instances do. The outbox delivers them and checks the suppression list at the moment
 * of sending.
 *
 * States: draft → scheduled (or straight on) → sending ⇄ paused → finished, or cancelled from any
 * state before finished. Sending pauses itself when too many of its recent mails failed.
 */
import { randomBytes, type KeyObject } from "node:crypto";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { queryRows, type Db } from "#db/client.ts";
import type { BROADCAST_KINDS, BROADCAST_STATUSES } from "#db/schema.ts";
import { AUTOMATIC, recordAudit } from "#server/audit/audit-log.ts";
import type { Env } from "#server/env.ts";
import { broadcastMailMaker, checkBroadcastBody } from "#server/broadcasts/broadcast-mail.ts";
import { AudienceSchema, audienceCondition, type Audience } from "#server/broadcasts/audience.ts";
import { stoppedBy } from "#server/mail/suppression-policy.ts";
import type { Suppressions } from "#server/mail/suppressions.ts";
import { enqueue, type OutboxMessage } from "#server/outbox/outbox.ts";
import { siteLink } from "#server/waitlist/entry-mail.ts";
import { unsubscribeToken } from "#server/waitlist/consent.ts";
import { newToken, storeTokens, tokenRow, type TokenRow } from "#server/waitlist/tokens.ts";

type Kind = (typeof BROADCAST_KINDS)[number];
type Status = (typeof BROADCAST_STATUSES)[number];

/** Sending pauses itself when, among its mails that ended in the last window, this many failed. */
const AUTO_PAUSE = { windowMinutes: 10, minFailed: 10, failedShare: 0.1 };

/** The outbox key of a broadcast's mail to one entry: one message per (broadcast, entry). */
const broadcastKey = (broadcastId: number, entryId: number) =>
  `${broadcastKeyPrefix(broadcastId)}${entryId}`;
/** What every outbox key of a broadcast's mails begins with, and no other broadcast's. */
const broadcastKeyPrefix = (broadcastId: number) => `broadcast:${broadcastId}:`;

export type BroadcastDraft = { kind: Kind; subject: string; body: string; audience: Audience };

export type BroadcastRow = BroadcastDraft & {
  id: number;
  status: Status;
  scheduledAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  pausedReason: string | null;
  recipients: number;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
};

export type Progress = {
  recipients: number;
  /** Not yet handed to the outbox. */
  waiting: number;
  /** In the outbox, not yet sent. */
  pending: number;
  sent: number;
  failed: number;
  suppressed: number;
  unsubscribed: number;
  bounced: number;
  complained: number;
};

/** A refusal the administrator reads: what is wrong, per field where there is one. */
export type Refusal = { ok: false; message: string; field?: keyof BroadcastDraft | "at" };
type Done<T = object> = { ok: true } & T;

const LINE_BREAK = /[\r\n\u2028\u2029]/;

/** The draft as typed, checked; or what is wrong with it. */
export function checkDraft(input: {
  kind: string;
  subject: string;
  body: string;
  audience: unknown;
}): Done<{ draft: BroadcastDraft }> | Refusal {
  if (input.kind !== "waitlist-news" && input.kind !== "product-news")
    return { ok: false, field: "kind", message: "Choose waitlist news or product news." };
  const subject = input.subject.trim();
  if (LINE_BREAK.test(input.subject))
    return { ok: false, field: "subject", message: "The subject must be one line." };
  if (subject === "") return { ok: false, field: "subject", message: "Enter a subject." };
  if (subject.length > 200)
    return { ok: false, field: "subject", message: "Keep the subject under 200 characters." };
  const body = checkBroadcastBody(input.body);
  if (!body.ok) return { ok: false, field: "body", message: body.message };
  const audience = AudienceSchema.safeParse(input.audience);
  if (!audience.success)
    return {
      ok: false,
      field: "audience",
      message: audience.error.issues[0]?.message ?? "Choose who it goes to.",
    };
  return {
    ok: true,
    draft: { kind: input.kind, subject, body: input.body, audience: audience.data },
  };
}

type Row = {
  id: string | number;
  kind: Kind;
  subject: string;
  body: string;
  audience: Audience;
  status: Status;
  scheduled_at: Date | null;
  started_at: Date | null;
  finished_at: Date | null;
  paused_reason: string | null;
  recipients: number;
  created_by: string;
  created_at: Date;
  updated_at: Date;
};

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
const toBroadcast = (row: Row): BroadcastRow => ({
  id: Number(row.id),
  kind: row.kind,
  subject: row.subject,
  body: row.body,
  audience: row.audience,
  status: row.status,
  scheduledAt: iso(row.scheduled_at),
  startedAt: iso(row.started_at),
  finishedAt: iso(row.finished_at),
  pausedReason: row.paused_reason,
  recipients: row.recipients,
  createdBy: row.created_by,
  createdAt: new Date(row.created_at).toISOString(),
  updatedAt: new Date(row.updated_at).toISOString(),
});

/** Who did it, from where: every administrator action is an Activity row. */
export type Actor = { adminEmail: string; clientAddress: string };

export type Broadcasts = ReturnType<typeof createBroadcasts>;

/** Broadcasts whose laid-out mail is kept between turns: more than ever send at once. */
const MAKERS_KEPT = 8;

export function createBroadcasts(deps: {
  db: Db;
  env: Env;
  log: FastifyBaseLogger;
  suppressions: Pick<Suppressions, "byAddress">;
  unsubscribeKey: KeyObject;
  /** The qualifying questions' link (decision 043), in waitlist news to those who may answer. */
  answersToken: (entry: { id: number; email: string }) => string;
  /** Told when mails went into the outbox. */
  onEnqueued: () => void;
}) {
  const { db, env, log } = deps;

  const byId = async (tx: Db, id: number, lock = false) => {
    const [row] = await queryRows<Row>(
      tx,
      sql`SELECT * FROM broadcasts WHERE id = ${id} ${lock ? sql`FOR UPDATE` : sql``}`,
    );
    return row ?? null;
  };

  /**
   * Broadcast `b`'s mail for each recipient, laid out once (broadcastMailMaker) and kept for the
   * turns that follow: laying out renders the mail's React template, milliseconds on the visitors'
   * thread that a turn each second would otherwise spend again (decision 042). Kept by what it is
   * made of, so a draft edited between two test sends is laid out anew; a few at most.
   */
  const makers = new Map<string, ReturnType<typeof broadcastMailMaker>>();
  const makerFor = (b: { kind: Kind; subject: string; body: string }) => {
    const key = JSON.stringify([b.kind, b.subject, b.body]);
    let make = makers.get(key);
    if (!make) {
      make = broadcastMailMaker({
        subject: b.subject,
        body: b.body,
        kind: b.kind,
        siteUrl: env.siteUrl,
      });
      makers.set(key, make);
      for (const oldest of makers.keys()) {
        if (makers.size <= MAKERS_KEPT) break;
        makers.delete(oldest);
      }
    }
    return make;
  };

  /** The mail of broadcast `b` to one entry, with its unsubscribe and removal links. */
  function mailFor(
    b: { id: number; kind: Kind; make: ReturnType<typeof makerFor> },
    entry: { id: number; name: string | undefined; email: string; mayAnswer: boolean },
    key: string,
    /** Where the removal link's token row goes; null for a test, whose links name no entry. */
    tokens: TokenRow[] | null,
    category: "requested" | Kind,
  ): Extract<OutboxMessage, { channel: "email" }> {
    const remove = newToken();
    tokens?.push(tokenRow(entry.id, "remove", remove));
    const unsubscribeUrl = siteLink(
      env,
      `/unsubscribe?token=${unsubscribeToken(deps.unsubscribeKey, { entryId: entry.id, kind: b.kind, broadcastId: b.id })}`,
    );
    const rendered = b.make({
      name: entry.name,
      unsubscribeUrl,
      removeUrl: siteLink(env, `/waitlist/remove?token=${remove}`),
      answersUrl:
        b.kind === "waitlist-news" && entry.mayAnswer
          ? siteLink(env, `/waitlist/answers?token=${deps.answersToken(entry)}`)
          : undefined,
    });
    return {
      key,
      channel: "email",
      email: {
        category,
        from: env.mail.from,
        to: { name: entry.name, address: entry.email },
        ...rendered,
        headers: {
          // One-click unsubscribe from this kind (RFC 8058); the removal link is in the body.
          "List-Unsubscribe": `<${unsubscribeUrl}>`,
          "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
          Precedence: "bulk",
        },
      },
    };
  }

  /** How many the audience reaches now, and how many of them are on the suppression list. */
  async function count(kind: Kind, audience: Audience) {
    const [row] = await queryRows<{ reach: number; suppressed: number }>(
      db,
      sql`
      SELECT count(*)::int AS reach,
        count(*) FILTER (WHERE EXISTS (
          SELECT 1 FROM mail_suppressions s
          WHERE s.address = lower(btrim(e.email)) AND s.scope IN ('all', ${kind})))::int AS suppressed
      FROM waitlist_entries e WHERE ${audienceCondition(kind, audience)}`,
    );
    return { reach: row?.reach ?? 0, suppressed: row?.suppressed ?? 0 };
  }

  /**
   * Fixes the recipients and starts sending, in the caller's transaction, from a broadcast row
   * already locked. Refused when the audience is empty: nothing changes then.
   */
  async function begin(tx: Db, row: Row): Promise<Done<{ recipients: number }> | Refusal> {
    const id = Number(row.id);
    const inserted = await queryRows<{ n: number }>(
      tx,
      sql`
      WITH fixed AS (
        INSERT INTO broadcast_recipients (broadcast_id, entry_id)
        SELECT ${id}, e.id FROM waitlist_entries e
        WHERE ${audienceCondition(row.kind, row.audience)}
        ON CONFLICT DO NOTHING RETURNING 1)
      SELECT count(*)::int AS n FROM fixed`,
    );
    const recipients = inserted[0]?.n ?? 0;
    if (recipients === 0)
      return {
        ok: false,
        field: "audience",
        message: "This audience has nobody in it: nothing was sent.",
      };
    await tx.execute(sql`
      UPDATE broadcasts SET status = 'sending', started_at = now(), pumped_at = now(),
        recipients = ${recipients}, scheduled_at = NULL, updated_at = now()
      WHERE id = ${id}`);
    return { ok: true, recipients };
  }

  return {
    count,

    async list(): Promise<BroadcastRow[]> {
      const rows = await queryRows<Row>(
        db,
        sql`SELECT * FROM broadcasts ORDER BY id DESC LIMIT 200`,
      );
      return rows.map(toBroadcast);
    },

    async get(id: number): Promise<BroadcastRow | null> {
      const row = await byId(db, id);
      return row ? toBroadcast(row) : null;
    },

    async create(draft: BroadcastDraft, actor: Actor): Promise<number> {
      const [row] = await queryRows<{ id: number }>(
        db,
        sql`
        INSERT INTO broadcasts (kind, subject, body, audience, created_by)
        VALUES (${draft.kind}, ${draft.subject}, ${draft.body}, ${JSON.stringify(draft.audience)}::jsonb,
          ${actor.adminEmail})
        RETURNING id`,
      );
      return Number(row!.id);
    },

    /** Changes a draft; a broadcast past draft is not changed, and says so. */
    async update(id: number, draft: BroadcastDraft): Promise<Done | Refusal> {
      const rows = await queryRows<{ id: number }>(
        db,
        sql`
        UPDATE broadcasts SET kind = ${draft.kind}, subject = ${draft.subject}, body = ${draft.body},
          audience = ${JSON.stringify(draft.audience)}::jsonb, updated_at = now()
        WHERE id = ${id} AND status = 'draft' RETURNING id`,
      );
      return rows.length > 0
        ? { ok: true }
        : { ok: false, message: "Only a draft can be changed: this broadcast is no longer one." };
    },

    /** The broadcast as one recipient would get it, to the administrator's own address. */
    async testSend(id: number, actor: Actor): Promise<Done | Refusal> {
      const row = await byId(db, id);
      if (!row) return { ok: false, message: "There is no such broadcast." };
      const b = { id, kind: row.kind, make: makerFor(row) };
      await db.transaction(async (tx) => {
        const message = mailFor(
          b,
          // A test has no entry: its links name entry 0, which none is, and a removal token that
          // was never stored, so pressing them changes nothing.
          { id: 0, name: undefined, email: actor.adminEmail, mayAnswer: true },
          `broadcast-test:${id}:${randomBytes(9).toString("base64url")}`,
          null,
          "requested",
        );
        await enqueue(tx, [
          { ...message, email: { ...message.email, subject: `[Test] ${row.subject}` } },
        ]);
        await recordAudit(tx, [
          {
            ...actor,
            action: "broadcast-test",
            entryId: null,
            broadcastId: id,
            outcome: "sent to own address",
          },
        ]);
      });
      deps.onEnqueued();
      return { ok: true };
    },

    /**
     * Sends now, or at `at`. Only a draft starts: a second press finds it started and says so,
     * and nothing is sent twice. A time in the past is refused.
     */
    async start(
      id: number,
      actor: Actor,
      at?: Date,
    ): Promise<Done<{ recipients?: number }> | Refusal> {
      if (at && at.getTime() <= Date.now())
        return {
          ok: false,
          field: "at",
          message: "That time has passed: choose a time in the future, or send now.",
        };
      return db.transaction(async (tx) => {
        const row = await byId(tx, id, true);
        if (!row) return { ok: false, message: "There is no such broadcast." };
        if (row.status !== "draft")
          return {
            ok: false,
            message: `This broadcast is already ${row.status}: it was not started again.`,
          };
        if (at) {
          await tx.execute(sql`
            UPDATE broadcasts SET status = 'scheduled', scheduled_at = ${at.toISOString()}::timestamptz,
              updated_at = now() WHERE id = ${id}`);
          await recordAudit(tx, [
            {
              ...actor,
              action: "broadcast-schedule",
              entryId: null,
              broadcastId: id,
              outcome: `for ${at.toISOString()}`,
            },
          ]);
          return { ok: true };
        }
        const begun = await begin(tx, row);
        if (!begun.ok) return begun;
        await recordAudit(tx, [
          {
            ...actor,
            action: "broadcast-start",
            entryId: null,
            broadcastId: id,
            outcome: `${begun.recipients} recipients`,
          },
        ]);
        return begun;
      });
    },

    async pause(id: number, actor: Actor) {
      return change(
        id,
        actor,
        "broadcast-pause",
        ["sending"],
        "paused",
        "paused by an administrator",
      );
    },
    async resume(id: number, actor: Actor) {
      return change(id, actor, "broadcast-resume", ["paused"], "sending", null);
    },
    async cancel(id: number, actor: Actor) {
      return change(
        id,
        actor,
        "broadcast-cancel",
        ["draft", "scheduled", "sending", "paused"],
        "cancelled",
        null,
      );
    },

    async progress(id: number): Promise<Progress> {
      const [row] = await queryRows<Progress>(
        db,
        sql`
        SELECT count(*)::int AS recipients,
          count(*) FILTER (WHERE r.status = 'waiting')::int AS waiting,
          count(*) FILTER (WHERE o.status = 'pending')::int AS pending,
          count(*) FILTER (WHERE o.status = 'sent')::int AS sent,
          count(*) FILTER (WHERE o.status = 'failed')::int AS failed,
          count(*) FILTER (WHERE r.status = 'suppressed' OR o.status = 'suppressed')::int AS suppressed,
          count(*) FILTER (WHERE r.status = 'unsubscribed' OR EXISTS (
            SELECT 1 FROM mail_events m WHERE m.outbox_id = r.outbox_id AND m.kind = 'unsubscribe'))::int
            AS unsubscribed,
          count(*) FILTER (WHERE EXISTS (
            SELECT 1 FROM mail_events m WHERE m.outbox_id = r.outbox_id
              AND m.kind IN ('hard-bounce', 'soft-bounce')))::int AS bounced,
          count(*) FILTER (WHERE EXISTS (
            SELECT 1 FROM mail_events m WHERE m.outbox_id = r.outbox_id AND m.kind = 'complaint'))::int
            AS complained
        FROM broadcast_recipients r LEFT JOIN outbox o ON o.id = r.outbox_id
        WHERE r.broadcast_id = ${id}`,
      );
      return row!;
    },

    /**
     * One turn of sending, for every broadcast due: scheduled ones whose time has come start,
     * and each sending one hands the outbox as many mails as the rate allows since its last turn.
     * Safe to run on several instances at once: each broadcast's turn holds its row's lock.
     */
    async pump(ratePerMinute: number, maxPerTurn = 500): Promise<number> {
      let handed = 0;
      const due = await queryRows<{ id: number }>(
        db,
        sql`SELECT id FROM broadcasts WHERE status = 'sending'
              OR (status = 'scheduled' AND scheduled_at <= now()) ORDER BY id`,
      );
      for (const { id } of due) handed += await turn(Number(id), ratePerMinute, maxPerTurn);
      if (handed > 0) deps.onEnqueued();
      return handed;
    },
  };

  async function change(
    id: number,
    actor: Actor,
    action: "broadcast-pause" | "broadcast-resume" | "broadcast-cancel",
    from: Status[],
    to: Status,
    reason: string | null,
  ): Promise<Done | Refusal> {
    return db.transaction(async (tx) => {
      const row = await byId(tx, id, true);
      if (!row) return { ok: false, message: "There is no such broadcast." };
      if (!from.includes(row.status))
        return {
          ok: false,
          message: `This broadcast is ${row.status}: it cannot be ${to === "sending" ? "resumed" : to}.`,
        };
      // A schedule a restore paused before it began (server/operations/after-restore.ts): resumed,
      // it begins now, its recipients fixed as a start fixes them.
      if (to === "sending" && row.started_at === null) {
        const begun = await begin(tx, row);
        if (!begun.ok) return begun;
        await tx.execute(sql`UPDATE broadcasts SET paused_reason = NULL WHERE id = ${id}`);
        await recordAudit(tx, [
          {
            ...actor,
            action,
            entryId: null,
            broadcastId: id,
            outcome: `${begun.recipients} recipients`,
          },
        ]);
        return { ok: true };
      }
      // Resumed, the rate counts from now: the pause is not a debt to be paid in a burst.
      await tx.execute(sql`
        UPDATE broadcasts SET status = ${to}, paused_reason = ${reason}, updated_at = now(),
          pumped_at = CASE WHEN ${to} = 'sending' THEN now() ELSE pumped_at END,
          finished_at = CASE WHEN ${to} = 'cancelled' THEN now() ELSE finished_at END
        WHERE id = ${id}`);
      await recordAudit(tx, [{ ...actor, action, entryId: null, broadcastId: id, outcome: to }]);
      return { ok: true };
    });
  }

  /** One broadcast's turn; resolves with how many mails it handed to the outbox. */
  async function turn(id: number, ratePerMinute: number, maxPerTurn: number): Promise<number> {
    const secondsPerMail = 60 / ratePerMinute;
    return db.transaction(async (tx) => {
      const [row] = await queryRows<Row & { allowance: number }>(
        tx,
        sql`
        SELECT *, floor(extract(epoch FROM now() - coalesce(pumped_at, now())) / ${secondsPerMail})::int
          AS allowance
        FROM broadcasts WHERE id = ${id} FOR UPDATE SKIP LOCKED`,
      );
      if (!row) return 0;
      if (row.status === "scheduled") {
        if (!row.scheduled_at || new Date(row.scheduled_at).getTime() > Date.now()) return 0;
        const begun = await begin(tx, row);
        if (!begun.ok) {
          await tx.execute(sql`
            UPDATE broadcasts SET status = 'cancelled', finished_at = now(), updated_at = now(),
              paused_reason = 'Nobody was in its audience when its time came.' WHERE id = ${id}`);
        }
        return 0;
      }
      if (row.status !== "sending") return 0;
      if (await pausedByFailures(tx, id)) return 0;
      // At most a minute's worth at once, so a broadcast that waited (a slow turn) does not burst.
      const take = Math.min(row.allowance, ratePerMinute, maxPerTurn);
      if (take <= 0) return 0;
      const recipients = await queryRows<{
        entry_id: number;
        name: string;
        email: string;
        eligible: boolean;
        may_answer: boolean;
      }>(
        tx,
        sql`
        SELECT r.entry_id, e.name, e.email, (${audienceCondition(row.kind, row.audience)}) AS eligible,
          e.state IN ('confirmed', 'invited') AS may_answer
        FROM broadcast_recipients r JOIN waitlist_entries e ON e.id = r.entry_id
        WHERE r.broadcast_id = ${id} AND r.status = 'waiting'
        ORDER BY r.entry_id LIMIT ${take}
        FOR UPDATE OF r SKIP LOCKED`,
      );
      if (recipients.length === 0) {
        await finishIfDone(tx, id);
        return 0;
      }
      const b = { id, kind: row.kind, make: makerFor(row) };
      const listed = await deps.suppressions.byAddress(
        recipients.filter((r) => r.eligible).map((r) => r.email),
        tx,
      );
      const tokens: TokenRow[] = [];
      const messages: OutboxMessage[] = [];
      const queued: number[] = [];
      const unsubscribed: number[] = [];
      const suppressed: number[] = [];
      for (const r of recipients) {
        const entryId = Number(r.entry_id);
        // Consent withdrawn since sending started: no mail.
        if (!r.eligible) {
          unsubscribed.push(entryId);
          continue;
        }
        if (stoppedBy(row.kind, listed.get(r.email.trim().toLowerCase()) ?? [])) {
          suppressed.push(entryId);
          continue;
        }
        messages.push(
          mailFor(
            b,
            { id: entryId, name: r.name, email: r.email, mayAnswer: r.may_answer },
            broadcastKey(id, entryId),
            tokens,
            row.kind,
          ),
        );
        queued.push(entryId);
      }
      await storeTokens(tx, tokens);
      if (messages.length > 0) await enqueue(tx, messages);
      const mark = async (entries: number[], status: string) => {
        if (entries.length === 0) return;
        // One value for the list, as enqueue does (decision 061): whole numbers, so no quoting.
        const list = `{${entries.join(",")}}`;
        await tx.execute(sql`
          UPDATE broadcast_recipients r SET status = ${status},
            outbox_id = CASE WHEN ${status} = 'queued'
              THEN (SELECT o.id FROM outbox o WHERE o.key = ${broadcastKeyPrefix(id)}::text || r.entry_id)
              END
          WHERE r.broadcast_id = ${id} AND r.entry_id = ANY(${list}::bigint[])`);
      };
      await mark(queued, "queued");
      await mark(unsubscribed, "unsubscribed");
      await mark(suppressed, "suppressed");
      // The rate moves on by what was taken, not to now: the fraction left counts next turn.
      await tx.execute(sql`
        UPDATE broadcasts SET pumped_at = pumped_at + make_interval(secs => ${recipients.length * secondsPerMail})
        WHERE id = ${id}`);
      log.debug(
        { event: "broadcast.turn", broadcastId: id, queued: queued.length },
        "broadcast turn",
      );
      return queued.length;
    });
  }

  /** Pauses the broadcast when too many of its mails that ended lately failed; true if it did. */
  async function pausedByFailures(tx: Db, id: number): Promise<boolean> {
    const window = sql`now() - make_interval(mins => ${AUTO_PAUSE.windowMinutes})`;
    // Every turn asks, so both counts read only the window's mails, found by the partial indexes
    // on when each failed or was sent, and told apart by key (broadcastKey): never the broadcast's
    // recipients, which grow with the audience and would make each turn longer than the last.
    const ours = sql`starts_with(key, ${broadcastKeyPrefix(id)})`;
    const [failures] = await queryRows<{ failed: number }>(
      tx,
      sql`
      SELECT count(*)::int AS failed FROM outbox
      WHERE status = 'failed' AND failed_at > ${window} AND ${ours}`,
    );
    const failed = failures?.failed ?? 0;
    if (failed < AUTO_PAUSE.minFailed) return false;
    const [recent] = await queryRows<{ sent: number }>(
      tx,
      sql`
      SELECT count(*)::int AS sent FROM outbox
      WHERE status = 'sent' AND sent_at > ${window} AND ${ours}`,
    );
    const ended = failed + (recent?.sent ?? 0);
    if (failed / ended < AUTO_PAUSE.failedShare) return false;
    const reason = `Paused by itself: ${failed} of the ${ended} mails that ended in the last ${AUTO_PAUSE.windowMinutes} minutes failed. Check the relay and the failures on Deliveries, then resume or cancel.`;
    await tx.execute(sql`
      UPDATE broadcasts SET status = 'paused', paused_reason = ${reason}, updated_at = now() WHERE id = ${id}`);
    await recordAudit(tx, [
      {
        adminEmail: null,
        clientAddress: AUTOMATIC,
        action: "broadcast-pause",
        entryId: null,
        broadcastId: id,
        outcome: `${failed} of ${ended} failed`,
      },
    ]);
    log.warn(
      { event: "broadcast.auto_pause", broadcastId: id, failed, ended },
      "broadcast paused itself",
    );
    return true;
  }

  /** Finished once every recipient was handed over (or skipped) and the outbox holds none of it. */
  async function finishIfDone(tx: Db, id: number) {
    await tx.execute(sql`
      UPDATE broadcasts SET status = 'finished', finished_at = now(), updated_at = now()
      WHERE id = ${id} AND status = 'sending'
        AND NOT EXISTS (SELECT 1 FROM broadcast_recipients WHERE broadcast_id = ${id} AND status = 'waiting')
        AND NOT EXISTS (
          SELECT 1 FROM broadcast_recipients r JOIN outbox o ON o.id = r.outbox_id
          WHERE r.broadcast_id = ${id} AND o.status = 'pending')`);
  }
}
