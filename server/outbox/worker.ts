/**
 * Delivers the outbox (decision 022). A short statement claims a few due rows with FOR UPDATE SKIP
 * LOCKED and leases them (next_attempt_at pushed past the longest send, attempts counted), and
 * commits; each row is then sent outside any transaction, and its outcome is written only if the
 * lease is still ours. An instance killed mid-send leaves its rows leased: when the lease runs out,
 * any instance retries them. A message the relay accepted is marked sent at once, so only a crash
 * between the relay's answer and that update sends it again, with the same Message-ID.
 *
 * A mail is checked against the suppression list at the moment it is sent (decision 041): one its
 * category may not go to is marked `suppressed` and never sent. A relay's final refusal of the
 * recipient puts the address on the list.
 *
 * Giving up happens in two places: when a failure is recorded after the message's time is up, and
 * in the claim itself, for a row that was tried before and is due again past that time. The second
 * catches a row whose sends never record an outcome (the sender stopped mid-send each time): it
 * would otherwise be claimed again after every lease, forever.
 */
import { fillPlaceholders, sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { FastifyBaseLogger } from "fastify";
import { queryRows, type Db } from "#db/client.ts";
import type { OUTBOX_CHANNELS } from "#db/schema.ts";
import type { Env } from "#server/env.ts";
import { DeliveryError } from "#server/outbox/delivery-error.ts";
import type { EmailSender } from "#server/outbox/email.ts";
import type { MarkedMail } from "#server/outbox/smtp-message.ts";
import { categoryOf, stoppedBy, type Suppression } from "#server/mail/suppression-policy.ts";
import type { Suppressions } from "#server/mail/suppressions.ts";
import type {
  EmailPayload,
  ForwardPayload,
  SlackPayload,
  WebhookPayload,
} from "#server/outbox/outbox.ts";
import { forwardEntry, notifySlack } from "#server/outbox/webhooks.ts";

type Channel = (typeof OUTBOX_CHANNELS)[number];

export type OutboxTiming = {
  /** Rows claimed at once by one instance. */
  batch: number;
  /** How long a claim holds a row; longer than any send may take (email.ts: 60 s). */
  leaseMs: number;
  /** How often to look for due rows when nothing woke the worker. */
  pollMs: number;
  /** The first retry's delay; each further one doubles, up to maxDelayMs, with jitter. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** After this long since it was enqueued, a message that still fails is marked failed. */
  giveUpMs: number;
  /**
   * Webhooks (decision 046) keep their own schedule, as Standard Webhooks suggests: the wait after
   * each failed attempt in turn (the last repeats), over about three days, then given up.
   */
  webhookScheduleMs?: readonly number[];
  webhookGiveUpMs?: number;
};

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/** 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 20 h: about 71.6 hours in all. */
const WEBHOOK_SCHEDULE_MS = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  14 * HOUR,
  20 * HOUR,
  20 * HOUR,
];
const WEBHOOK_GIVE_UP_MS = 72 * HOUR;

const OUTBOX_TIMING: OutboxTiming = {
  batch: 10,
  leaseMs: 5 * 60_000,
  pollMs: 5_000,
  firstDelayMs: 10_000,
  maxDelayMs: 60 * 60_000,
  giveUpMs: 24 * 60 * 60_000,
};

/** How long after a request's wake the worker looks for messages (see wakeSoon). */
const WAKE_DELAY_MS = 100;

/**
 * ±25% jitter, so messages that failed together do not all retry together. A webhook follows its
 * schedule, and waits at least as long as its receiver's Retry-After asked.
 */
function retryDelayMs(
  channel: Channel,
  attempts: number,
  timing: OutboxTiming,
  retryAfterMs = 0,
): number {
  const schedule = timing.webhookScheduleMs ?? WEBHOOK_SCHEDULE_MS;
  const plain =
    channel === "webhook"
      ? schedule[Math.min(schedule.length - 1, Math.max(0, attempts - 1))]!
      : Math.min(timing.maxDelayMs, timing.firstDelayMs * 2 ** Math.max(0, attempts - 1));
  return Math.max(retryAfterMs, Math.round(plain * (0.75 + Math.random() * 0.5)));
}

/** "24 h", "1 min", "30 s": how long the outbox tried, as a give-up reason states it. */
function describeSpan(ms: number): string {
  if (ms >= 3_600_000) return `${Math.round(ms / 3_600_000)} h`;
  if (ms >= 60_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 1000)} s`;
}

/**
 * A claimed row: handed out (`pending`, to be sent now) or, when the claim gave it up instead,
 * `failed` with its reason in `last_error`.
 */
type Claimed = {
  id: number;
  key: string;
  channel: Channel;
  payload: unknown;
  message_id: string | null;
  attempts: number;
  status: "pending" | "failed";
  last_error: string | null;
};

/** Where each channel goes; a channel without one stays pending until it is configured. */
export type Destinations = {
  email: EmailSender | undefined;
  /** The envelope sender of the mail in an outbox row: its VERP address, when BOUNCE_ADDRESS is set. */
  returnPath?: (outboxId: number) => string;
  forward: Env["waitlistForward"];
  slackWebhookUrl: string | undefined;
  /** Signed webhooks (server/webhooks/deliver.ts); always there in the site, absent in tests. */
  webhook?: (payload: WebhookPayload) => Promise<void>;
};

export type OutboxWorker = { wake: () => void; stop: () => Promise<void> };

/** What became of one delivery attempt: sent, to be tried again, given up, or held back. */
export type DeliveryOutcome = "sent" | "retry" | "failed" | "suppressed";

export function startOutboxWorker({
  db,
  destinations,
  suppressions,
  log,
  timing = OUTBOX_TIMING,
  onOutcome = () => {},
}: {
  /** Where rows are claimed and each outcome is written, at once: the sooner a sent mail is marked, the less a kill resends. */
  db: Db;
  destinations: Destinations;
  /** Required: no worker sends mail without asking the suppression list first. */
  suppressions: Pick<Suppressions, "byAddress" | "record">;
  log: FastifyBaseLogger;
  timing?: OutboxTiming;
  /** Told of every attempt's outcome (the metrics count them). */
  onOutcome?: (channel: Channel, outcome: DeliveryOutcome) => void;
}): OutboxWorker {
  const channels = [
    ...(destinations.email ? ["email"] : []),
    ...(destinations.forward ? ["forward"] : []),
    ...(destinations.slackWebhookUrl ? ["slack"] : []),
    ...(destinations.webhook ? ["webhook"] : []),
  ];
  if (channels.length === 0) return { wake() {}, stop: () => Promise.resolve() };
  const channelList = sql.join(
    channels.map((c) => sql`${c}`),
    sql`, `,
  );
  const webhookGiveUpMs = timing.webhookGiveUpMs ?? WEBHOOK_GIVE_UP_MS;
  // Each row's own: a webhook's is longer (its schedule spans about three days).
  const giveUpAfter = sql`make_interval(secs => CASE WHEN channel = 'webhook'
    THEN ${webhookGiveUpMs / 1000}::double precision
    ELSE ${timing.giveUpMs / 1000}::double precision END)`;
  // Given up by the claim: a row tried before and due again after its time is up. Its last_error
  // holds the latest outcome recorded; none means no attempt ever recorded one (each sender
  // stopped mid-send). A row never tried (its channel was not configured, or no instance ran)
  // still gets its one attempt.
  const abandoned = sql`(attempts > 0 AND now() >= created_at + ${giveUpAfter})`;
  const abandonedReason = sql`'gave up after ' || attempts
    || CASE WHEN attempts = 1 THEN ' attempt' ELSE ' attempts' END
    || ' over ' || CASE WHEN channel = 'webhook' THEN ${describeSpan(webhookGiveUpMs)}::text
      ELSE ${describeSpan(timing.giveUpMs)}::text END
    || coalesce('; last error recorded: ' || last_error,
                ': no outcome was recorded (the sender stopped mid-send)')`;
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;

  function send(row: Claimed): Promise<void> {
    switch (row.channel) {
      case "email":
        return destinations.email!.send(
          row.payload as EmailPayload,
          row.message_id!,
          destinations.returnPath?.(row.id),
        );
      case "forward":
        return forwardEntry(destinations.forward!, row.payload as ForwardPayload);
      case "slack":
        return notifySlack(destinations.slackWebhookUrl!, row.payload as SlackPayload);
      case "webhook":
        return destinations.webhook!(row.payload as WebhookPayload);
    }
  }

  const isBroadcast = (payload: EmailPayload) => {
    const category = categoryOf(payload);
    return category === "waitlist-news" || category === "product-news";
  };

  /**
   * The body, headers and files of a mail that will not be sent again (see below), and a webhook's
   * data (an entry's name and address), once it is delivered or given up.
   */
  const stripped = sql`CASE WHEN channel = 'email'
    THEN payload - 'text' - 'html' - 'headers' - 'attachments'
    WHEN channel = 'webhook' THEN payload - 'data' ELSE payload END`;

  // A sent mail keeps who it went to and its subject (the deliveries page, erasure by address),
  // not its body, headers or files: they carry links whose tokens the database otherwise keeps
  // only hashed, so a copy of the database (a backup) must not hold them in clear.
  const markSent = sql`
    UPDATE outbox SET status = 'sent', sent_at = now(), last_error = NULL, payload = ${stripped}`;
  /** The same, compiled once for the mail thread, the row's id and attempts left as parameters. */
  const markSentById = new PgDialect().sqlToQuery(sql`${markSent}
    WHERE id = ${sql.placeholder("id")} AND attempts = ${sql.placeholder("attempts")}
      AND status = 'pending'`);

  /**
   * True when the suppression list holds the mail back; then it is marked so, never sent. `listed`
   * is the list's word on the batch's addresses, asked just before the batch is sent.
   */
  async function heldBack(
    row: Claimed,
    ours: SQL,
    listed: Map<string, Suppression[]>,
  ): Promise<boolean> {
    if (row.channel !== "email") return false;
    const payload = row.payload as EmailPayload;
    const stop = stoppedBy(
      categoryOf(payload),
      payload.to.flatMap((box) => listed.get(box.address.trim().toLowerCase()) ?? []),
    );
    if (!stop) return false;
    const why = `suppressed: ${stop.reason}${stop.scope === "all" ? "" : ` (${stop.scope})`}`;
    await db.execute(sql`
      UPDATE outbox SET status = 'suppressed', last_error = ${why}, payload = ${stripped}
      WHERE ${ours}`);
    log.info(
      { event: "outbox.suppressed", outboxId: row.id, reason: stop.reason, scope: stop.scope },
      "mail held back: its address is on the suppression list",
    );
    onOutcome(row.channel, "suppressed");
    return true;
  }

  /** The row as claimed: its outcome is written only while the lease is still ours. */
  const oursOf = (row: Claimed) =>
    sql`id = ${row.id} AND attempts = ${row.attempts} AND status = 'pending'`;

  /** A failed attempt: tried again later, or given up, and a refused recipient suppressed. */
  async function recordFailure(row: Claimed, error: unknown) {
    const ours = oursOf(row);
    const failure =
      error instanceof DeliveryError ? error : new DeliveryError((error as Error).message, false);
    const reason = failure.message.slice(0, 500);
    const delay = retryDelayMs(row.channel, row.attempts, timing, failure.retryAfterMs);
    const retryAt = sql`now() + make_interval(secs => ${delay / 1000})`;
    const final = sql`(${failure.permanent} OR ${retryAt} > created_at + ${giveUpAfter})`;
    const [after] = await db.transaction(async (tx) => {
      const updated = await queryRows<{ status: string }>(
        tx,
        sql`
        UPDATE outbox SET last_error = ${reason},
          status = CASE WHEN ${final} THEN 'failed' ELSE 'pending' END,
          failed_at = CASE WHEN ${final} THEN now() END,
          payload = CASE WHEN ${final} AND channel = 'webhook' THEN payload - 'data'
            ELSE payload END,
          next_attempt_at = ${retryAt}
        WHERE ${ours}
        RETURNING status`,
      );
      // The relay refused the recipient for good: the address goes on the suppression list.
      if (updated.length > 0 && failure.recipientRefused && row.channel === "email")
        for (const box of (row.payload as EmailPayload).to)
          await suppressions.record(tx, {
            outboxId: row.id,
            address: box.address,
            kind: "refused",
            detail: reason,
          });
      return updated;
    });
    const fields = {
      event: "outbox.failed_attempt",
      outboxId: row.id,
      channel: row.channel,
      attempts: row.attempts,
      reason,
    };
    if (after?.status === "failed")
      log.error({ ...fields, event: "outbox.gave_up" }, "outbox message not delivered: gave up");
    else log.warn(fields, "outbox delivery failed; will retry");
    onOutcome(row.channel, after?.status === "failed" ? "failed" : "retry");
  }

  async function deliver(row: Claimed, listed: Map<string, Suppression[]>) {
    const ours = oursOf(row);
    try {
      if (await heldBack(row, ours, listed)) return;
      await send(row);
    } catch (error) {
      await recordFailure(row, error);
      return;
    }
    await db.execute(sql`${markSent} WHERE ${ours}`);
    onOutcome(row.channel, "sent");
  }

  /**
   * A broadcast's mails, one after another, each marked sent before the next leaves (decision
   * 042). With a line from the mail thread to the embedded database, that thread marks each mail
   * itself and answers once for them all (decision 063): the visitors' thread hands over the batch
   * and reads the outcomes, one round trip for ten mails where it made twenty. The suppression
   * list and failures stay here, as for any mail.
   */
  async function deliverInTurn(rows: Claimed[], listed: Map<string, Suppression[]>) {
    const sendEach = destinations.email?.sendEach;
    if (!sendEach) {
      for (const row of rows) await deliver(row, listed);
      return;
    }
    const due: Claimed[] = [];
    for (const row of rows) if (!(await heldBack(row, oursOf(row), listed))) due.push(row);
    if (due.length === 0) return;
    const { outcomes, stopped } = await sendEach(due.map(markedMail));
    for (const [i, { failure }] of outcomes.entries()) {
      if (failure === null) onOutcome("email", "sent");
      else
        await recordFailure(
          due[i]!,
          new DeliveryError(failure.message, failure.permanent, failure.recipientRefused),
        );
    }
    // The mail after the last outcome went, but is not marked: it stays leased, as when the
    // process stops mid-send, and the rows after it were never tried.
    if (stopped !== null) throw new Error(`outbox message ${due[outcomes.length]!.id}: ${stopped}`);
  }

  /** An email row as the mail thread sends and marks it. */
  function markedMail(row: Claimed): MarkedMail {
    return {
      payload: row.payload as EmailPayload,
      messageId: row.message_id!,
      returnPath: destinations.returnPath?.(row.id),
      marked: {
        sql: markSentById.sql,
        params: fillPlaceholders(markSentById.params, { id: row.id, attempts: row.attempts }),
      },
    };
  }

  async function drain() {
    while (!stopped) {
      // Every expression sees the row as it was before this statement.
      const claimed = await queryRows<Claimed>(
        db,
        sql`
        UPDATE outbox SET
          status = CASE WHEN ${abandoned} THEN 'failed' ELSE 'pending' END,
          failed_at = CASE WHEN ${abandoned} THEN now() END,
          last_error = CASE WHEN ${abandoned} THEN ${abandonedReason} ELSE last_error END,
          payload = CASE WHEN ${abandoned} AND channel = 'webhook' THEN payload - 'data'
            ELSE payload END,
          attempts = CASE WHEN ${abandoned} THEN attempts ELSE attempts + 1 END,
          next_attempt_at = CASE WHEN ${abandoned} THEN next_attempt_at
            ELSE now() + make_interval(secs => ${timing.leaseMs / 1000}) END
        WHERE id IN (
          SELECT id FROM outbox
          WHERE status = 'pending' AND next_attempt_at <= now() AND channel IN (${channelList})
          ORDER BY next_attempt_at, id LIMIT ${timing.batch}
          FOR UPDATE SKIP LOCKED)
        RETURNING id, key, channel, payload, message_id, attempts, status, last_error`,
      );
      if (claimed.length === 0) return;
      for (const row of claimed.filter((r) => r.status === "failed")) {
        onOutcome(row.channel, "failed");
        log.error(
          {
            event: "outbox.gave_up",
            outboxId: Number(row.id),
            channel: row.channel,
            attempts: row.attempts,
            reason: row.last_error,
          },
          "outbox message not delivered: gave up",
        );
      }
      const due = claimed.filter((r) => r.status === "pending");
      // One question to the suppression list for the whole batch, at the moment it is sent.
      const listed = await suppressions.byAddress(
        due.flatMap((r) =>
          r.channel === "email" ? (r.payload as EmailPayload).to.map((box) => box.address) : [],
        ),
      );
      // A broadcast's mails go one after another, each marked sent before the next leaves: should
      // the process die, at most the mail on the wire can go again, never the batch (decision
      // 042). They are paced by the broadcast's rate, far below what one connection carries. The
      // rest go side by side, as fast as the relay takes them.
      const bulk = due.filter(
        (r) => r.channel === "email" && isBroadcast(r.payload as EmailPayload),
      );
      const rest = due.filter((r) => !bulk.includes(r));
      await Promise.all([
        ...rest.map((row) => deliver({ ...row, id: Number(row.id) }, listed)),
        deliverInTurn(
          bulk.map((row) => ({ ...row, id: Number(row.id) })),
          listed,
        ),
      ]);
      // A batch short of full took every row that was due: asking again would find none. A row
      // enqueued meanwhile woke the worker (`again`), and one whose retry comes due, the timer.
      if (claimed.length < timing.batch) return;
    }
  }

  function wake() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = drain()
      .catch((error: unknown) => log.error({ err: error, event: "outbox.error" }, "outbox failed"))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          wake();
        }
      });
  }

  /**
   * A wake from outside (a request that enqueued a message) starts the work a moment later, not
   * in the request's own turn of the event loop: a delivery shares this thread with the answer
   * still being written, and a new address's answer would take longer than a known one's, which
   * tells them apart (server/http/answer-time.ts). A tenth of a second is nothing to a person waiting
   * for a mail.
   */
  let soon: NodeJS.Timeout | null = null;
  function wakeSoon() {
    if (stopped || soon) return;
    soon = setTimeout(() => {
      soon = null;
      wake();
    }, WAKE_DELAY_MS);
  }

  const timer = setInterval(wake, timing.pollMs);
  timer.unref();
  wake();
  return {
    wake: wakeSoon,
    /** Finishes the sends under way (their outcome is recorded), then claims nothing more. */
    async stop() {
      stopped = true;
      clearInterval(timer);
      if (soon) clearTimeout(soon);
      await running;
      destinations.email?.close();
    },
  };
}
