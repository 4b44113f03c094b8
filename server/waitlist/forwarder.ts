/**
 * The optional outbox: each new entry is also posted, form-encoded, to the operator's collector
 * (a Google Form's formResponse URL, say) with the four entry fields. Rows are claimed with a lease
 * so several instances never post the same one at once; failures back off exponentially.
 */
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { queryRows, type Db } from "#db/client.ts";
import type { Env } from "#server/env.ts";

const BATCH = 10;
const LEASE_SECONDS = 120;
const MAX_ATTEMPTS = 8;
const TICK_MS = 5_000;
const REQUEST_TIMEOUT_MS = 10_000;

type Claimed = {
  id: number;
  name: string;
  email: string;
  company: string | null;
  message: string | null;
  forward_attempts: number;
};

function backoffSeconds(attempts: number): number {
  return Math.min(3600, 5 * 2 ** Math.max(0, attempts - 1));
}

export function startForwarder({ db, env, log }: { db: Db; env: Env; log: FastifyBaseLogger }) {
  const target = env.waitlistForward;
  if (!target) return { wake() {}, stop: () => Promise.resolve() };
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;

  async function deliver(row: Claimed) {
    const [nameField, emailField, companyField, messageField] = target!.fields;
    const body = new URLSearchParams({
      [nameField]: row.name,
      [emailField]: row.email,
      [companyField]: row.company ?? "",
      [messageField]: row.message ?? "",
    });
    try {
      const response = await fetch(target!.url, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body,
        redirect: "manual",
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      await response.arrayBuffer().catch(() => undefined);
      if (response.status >= 400 || response.status === 0)
        throw new Error(`collector answered ${response.status}`);
      await db.execute(sql`
        UPDATE waitlist_entries SET forward_status = 'sent', forwarded_at = now(), forward_next_at = NULL,
          forward_attempts = forward_attempts + 1, forward_last_error = NULL
        WHERE id = ${row.id}`);
    } catch (error) {
      const attempts = row.forward_attempts + 1;
      const message = (error as Error).message.slice(0, 300);
      const failed = attempts >= MAX_ATTEMPTS;
      await db.execute(sql`
        UPDATE waitlist_entries SET forward_attempts = ${attempts}, forward_last_error = ${message},
          forward_status = ${failed ? "failed" : "pending"},
          forward_next_at = ${failed ? null : sql`now() + make_interval(secs => ${backoffSeconds(attempts)})`}
        WHERE id = ${row.id}`);
      log.warn(
        { event: "waitlist.forward_failed", entryId: row.id, attempts, failed },
        "forwarding a waitlist entry failed",
      );
    }
  }

  async function drain() {
    for (;;) {
      if (stopped) return;
      const claimed = await queryRows<Claimed>(
        db,
        sql`
        UPDATE waitlist_entries SET forward_next_at = now() + make_interval(secs => ${LEASE_SECONDS})
        WHERE id IN (
          SELECT id FROM waitlist_entries
          WHERE forward_status = 'pending' AND forward_next_at <= now()
          ORDER BY id LIMIT ${BATCH}
          FOR UPDATE SKIP LOCKED)
        RETURNING id, name, email, company, message, forward_attempts`,
      );
      if (claimed.length === 0) return;
      await Promise.all(claimed.map((row) => deliver({ ...row, id: Number(row.id) })));
    }
  }

  function wake() {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = drain()
      .catch((error: unknown) => log.error({ err: error }, "waitlist forwarder failed"))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          wake();
        }
      });
  }

  const timer = setInterval(wake, TICK_MS);
  timer.unref();
  wake();
  return {
    wake,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
