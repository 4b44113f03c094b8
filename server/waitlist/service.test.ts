import { sql } from "drizzle-orm";
import { pino } from "pino";
import { expect, test } from "vitest";
import { queryRows } from "#db/client.ts";
import { parseEnv } from "#server/env.ts";
import { createWaitlistService } from "#server/waitlist/service.ts";
import { databaseForThisFile } from "#tests/support/database.ts";

const database = databaseForThisFile();

test("a new entry and its outbox rows commit together; a repeat adds neither; the admin list reads the forwarding state", async () => {
  const env = parseEnv({
    WAITLIST_FORWARD_URL: "http://127.0.0.1:1/formResponse",
    WAITLIST_FORWARD_FIELDS: "a,b,c,d",
    SLACK_WEBHOOK_URL: "https://hooks.slack.example/x",
    WAITLIST_RATE_LIMIT: "0",
  });
  const waitlist = createWaitlistService({
    db: database().db,
    env,
    log: pino({ level: "silent" }),
  });
  const meta = { clientKey: "test", requestId: "r1" };
  const submit = (email: string) => waitlist.submit({ name: "Ada", email, company: "Acme" }, meta);
  const results = await Promise.all([
    submit("ada@example.com"),
    submit("ADA@example.com"),
    submit("bob@example.com"),
  ]);
  expect(results.map((r) => r.kind).sort()).toEqual(["created", "created", "exists"]);
  expect((await submit("bob@example.com")).kind).toBe("exists");

  const rows = await queryRows<{ key: string; channel: string; entry_email: string }>(
    database().db,
    sql`SELECT o.key, o.channel, w.email AS entry_email FROM outbox o
        JOIN waitlist_entries w ON o.key IN ('waitlist-forward:' || w.id, 'waitlist-slack:' || w.id)
        ORDER BY o.key`,
  );
  expect(rows).toHaveLength(4);
  expect(rows.filter((r) => r.channel === "forward")).toHaveLength(2);
  expect(rows.filter((r) => r.channel === "slack")).toHaveLength(2);

  const { entries } = await waitlist.list({ query: "", limit: 10 });
  expect(entries.map((e) => [e.forwardStatus, e.forwardAttempts])).toEqual([
    ["pending", 0],
    ["pending", 0],
  ]);
});
