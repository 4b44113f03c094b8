import { sql } from "drizzle-orm";
import pino from "pino";
import { Webhook } from "standardwebhooks";
import { describe, expect, test } from "vitest";
import { queryRows } from "#db/client.ts";
import { parseEnv } from "#server/env.ts";
import { DeliveryError } from "#server/outbox/delivery-error.ts";
import type { WebhookPayload } from "#server/outbox/outbox.ts";
import { createWebhookDelivery, retryAfterMs, signedHeaders } from "#server/webhooks/deliver.ts";
import { createWebhookEndpoints, urlProblem } from "#server/webhooks/endpoints.ts";
import { databaseForThisFile } from "#tests/support/database.ts";
import { closedPort } from "#tests/support/test-smtp.ts";

const database = databaseForThisFile();
const log = pino({ level: "silent" });
const actor = { adminEmail: "ops@example.com", clientAddress: "127.0.0.1" };

function envWith(allowPrivate: boolean) {
  return parseEnv({
    ADMIN_EMAILS: "ops@example.com",
    WEBHOOKS_ALLOW_PRIVATE: allowPrivate ? "true" : "false",
  });
}

describe("signing and answers", () => {
  test("the headers verify with the package, under each secret that signs", () => {
    const one = `whsec_${Buffer.from("first secret, 24 bytes!!").toString("base64")}`;
    const two = `whsec_${Buffer.from("second secret, 24 bytes!").toString("base64")}`;
    const body = JSON.stringify({ type: "entry.created", timestamp: "t", data: { id: 1 } });
    const headers = signedHeaders([one, two], "msg_1", new Date(), body);
    expect(headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(new Webhook(one).verify(body, headers)).toMatchObject({ type: "entry.created" });
    expect(new Webhook(two).verify(body, headers)).toMatchObject({ data: { id: 1 } });
    expect(() => new Webhook(one).verify(`${body} `, headers)).toThrow();
  });

  test("Retry-After in seconds or as a date, within a day; anything else is no answer", () => {
    const now = Date.parse("2026-11-28T00:00:00Z");
    expect(retryAfterMs("120", now)).toBe(120_000);
    expect(retryAfterMs(" 0 ", now)).toBe(0);
    expect(retryAfterMs("Sat, 28 Nov 2026 00:01:00 GMT", now)).toBe(60_000);
    expect(retryAfterMs("999999999", now)).toBe(24 * 60 * 60_000);
    expect(retryAfterMs("Fri, 27 Nov 2026 00:00:00 GMT", now)).toBe(0);
    for (const odd of [undefined, "", "soon", "-5", "1.5"])
      expect(retryAfterMs(odd, now)).toBeUndefined();
  });

  test("an endpoint's address is https, without a login or a fragment", () => {
    expect(urlProblem("https://hooks.example.com/in?x=1")).toBeNull();
    expect(urlProblem("")).toMatch(/Enter the endpoint's address/);
    expect(urlProblem("hooks.example.com")).toMatch(/full address/);
    expect(urlProblem("http://hooks.example.com/")).toMatch(/must start with https/);
    expect(urlProblem("https://user:pw@hooks.example.com/")).toMatch(/user name and password/);
    expect(urlProblem("https://hooks.example.com/#x")).toMatch(/fragment/);
    expect(urlProblem(`https://hooks.example.com/${"a".repeat(2000)}`)).toMatch(/2,000/);
  });
});

describe("an endpoint's deliveries", () => {
  test("refused when its host is private, unless the setting allows it", async () => {
    const { db } = database();
    const strict = createWebhookEndpoints({ db, env: envWith(false), onEnqueued: () => {} });
    const added = await strict.add(
      { url: "https://127.0.0.1:8443/hook", description: "", events: ["entry.created"] },
      actor,
    );
    expect(added).toMatchObject({ ok: false, field: "url" });
    expect(added.message).toMatch(/cannot receive webhooks: 127\.0\.0\.1 resolves to 127\.0\.0\.1/);
    const rows = await queryRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM webhook_endpoints`,
    );
    expect(rows).toEqual([{ n: 0 }]);
    expect(
      await strict.add(
        { url: "https://hooks.example.com/", description: "", events: ["entry.nothing"] },
        actor,
      ),
    ).toMatchObject({
      ok: false,
      field: "events",
      message: 'There is no event named "entry.nothing".',
    });
  });

  test("a receiver that cannot be reached is logged and retried; five days of it disables the endpoint and mails the admins", async () => {
    const { db } = database();
    const env = envWith(true);
    const endpoints = createWebhookEndpoints({ db, env, onEnqueued: () => {} });
    const port = await closedPort();
    const added = await endpoints.add(
      { url: `https://127.0.0.1:${port}/hook`, description: "Down", events: ["entry.created"] },
      actor,
    );
    expect(added).toMatchObject({ ok: true, secret: expect.stringMatching(/^whsec_/) as string });
    const id = added.id!;
    let woken = 0;
    const deliver = createWebhookDelivery({ db, env, log, onEnqueued: () => woken++ });
    const payload: WebhookPayload = {
      endpointId: id,
      msgId: "msg_down",
      type: "entry.created",
      timestamp: new Date().toISOString(),
      data: { id: 1 },
    };

    const first = await deliver(payload).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(DeliveryError);
    expect((first as DeliveryError).permanent).toBe(false);
    expect((first as DeliveryError).message).toMatch(/unreachable/);
    const found = await endpoints.get(id);
    expect(found?.attempts).toHaveLength(1);
    expect(found?.attempts[0]).toMatchObject({
      messageId: "msg_down",
      outcome: "retry",
      statusCode: null,
    });
    expect(found?.endpoint.failingSince).not.toBeNull();
    expect(found?.endpoint.disabledAt).toBeNull();

    // Failing since six days ago: this failure disables it, and the administrators hear once.
    await db.execute(
      sql`UPDATE webhook_endpoints SET failing_since = now() - interval '6 days' WHERE id = ${id}`,
    );
    await expect(deliver(payload)).rejects.toBeInstanceOf(DeliveryError);
    const disabled = await endpoints.get(id);
    expect(disabled?.endpoint.disabledReason).toBe("every delivery failed for five days");
    const mails = await queryRows<{ to: string; subject: string }>(
      db,
      sql`SELECT payload->'to'->0->>'address' AS to, payload->>'subject' AS subject
          FROM outbox WHERE key LIKE ${`webhook-disabled:${id}:%`}`,
    );
    expect(mails).toEqual([
      { to: "ops@example.com", subject: "A Tieout webhook endpoint was disabled" },
    ]);
    expect(woken).toBe(1);
    // Disabled, nothing more is sent: the message fails for good.
    const after = await deliver(payload).catch((e: unknown) => e);
    expect((after as DeliveryError).permanent).toBe(true);
    expect((after as DeliveryError).message).toBe("the endpoint is disabled");

    // Removed, its messages fail for good too, and its log goes with it.
    expect(await endpoints.act(id, "remove", actor)).toMatchObject({ ok: true });
    const gone = await deliver(payload).catch((e: unknown) => e);
    expect((gone as DeliveryError).message).toBe("the endpoint was removed");
    const left = await queryRows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM webhook_attempts WHERE endpoint_id = ${id}`,
    );
    expect(left).toEqual([{ n: 0 }]);
  });
});
