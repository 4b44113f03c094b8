import Fastify from "fastify";
import { pino } from "pino";
import { describe, expect, test } from "vitest";
import { parseEnv } from "#server/env.ts";
import errors from "#server/plugins/errors.ts";
import forms from "#server/plugins/forms.ts";
import waitlistApi from "#server/plugins/waitlist-api.ts";
import { createWaitlistService } from "#server/waitlist/service.ts";
import { databaseForThisFile } from "#tests/support/database.ts";
import { testAnswers, testLedger } from "#tests/support/erasure-ledger.ts";

const database = databaseForThisFile();

async function app(raw: Record<string, string> = {}) {
  const env = parseEnv({ WAITLIST_RATE_LIMIT: "0", ...raw });
  const waitlist = createWaitlistService({
    db: database().db,
    env,
    log: pino({ level: "silent" }),
    ledger: testLedger(),
    answers: testAnswers(database().db),
  });
  const server = Fastify();
  await server.register(forms);
  await server.register(errors);
  await server.register(waitlistApi, { waitlist });
  return server;
}

const entry = (email: string) => ({
  name: "Grace Hopper",
  email,
  company: "Hopper & Co. CPAs",
  message: "Workpapers for 40 clients",
});

describe("the waitlist-api plugin", () => {
  test("a valid entry is saved once: 202, then 202 with the same answer for the same address", async () => {
    const server = await app();
    const first = await server.inject({
      method: "POST",
      url: "/api/waitlist",
      payload: entry("grace@hopper.test"),
    });
    expect(first.statusCode).toBe(202);
    expect(first.headers["cache-control"]).toBe("no-store");
    const again = await server.inject({
      method: "POST",
      url: "/api/waitlist",
      payload: entry("GRACE@hopper.test"),
    });
    expect(again.statusCode).toBe(202);
    expect(again.json()).toEqual(first.json());
  });

  test("an invalid entry gets 422 with an error for each field, from the one schema", async () => {
    const server = await app();
    const answer = await server.inject({
      method: "POST",
      url: "/api/waitlist",
      payload: { name: "", email: "not an address" },
    });
    expect(answer.statusCode).toBe(422);
    const body = answer.json<{ ok: boolean; errors: Record<string, string[]> }>();
    expect(body.ok).toBe(false);
    expect(Object.keys(body.errors).sort()).toEqual(["email", "name"]);
  });

  test("past the limit a client is told to wait, with Retry-After", async () => {
    const server = await app({ WAITLIST_RATE_LIMIT: "1" });
    const send = (email: string) =>
      server.inject({
        method: "POST",
        url: "/api/waitlist",
        remoteAddress: "203.0.113.9",
        payload: entry(email),
      });
    expect((await send("one@limit.test")).statusCode).toBe(202);
    const refused = await send("two@limit.test");
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
  });
});
