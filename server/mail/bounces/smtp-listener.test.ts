import { readFileSync } from "node:fs";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, expect, test } from "vitest";
import { readReport } from "#server/mail/bounces/report.ts";
import {
  startBounceListener,
  type BounceEnvelope,
  type BounceListener,
} from "#server/mail/bounces/smtp-listener.ts";
import { messageOfVerp } from "#server/mail/bounces/verp.ts";
import { captureLog } from "#tests/support/log-lines.ts";

const BOUNCES = "bounces@tieout.ai";
const VERP = "bounces+1179-48e230f3b61dd0a8@tieout.ai";
const dsn = readFileSync(new URL("./fixtures/postfix-user-unknown.eml", import.meta.url));

type SmtpFailure = Error & { responseCode?: number; rejected?: string[] };

let listener: BounceListener;
const received: { raw: Buffer; envelope: BounceEnvelope }[] = [];
let failNext = false;
const captured = captureLog();

beforeAll(async () => {
  listener = await startBounceListener({
    port: 0,
    host: "127.0.0.1",
    bounceAddress: BOUNCES,
    log: captured.log,
    handle: (raw, envelope) => {
      if (failNext) {
        failNext = false;
        return Promise.reject(new Error("the database is down"));
      }
      received.push({ raw, envelope });
      return Promise.resolve();
    },
  });
});
afterAll(() => listener?.stop());

/** Sends as a remote MTA returning a bounce would: from the null sender, raw bytes, no TLS. */
async function send(to: string[], raw: Buffer, from = "") {
  const transport = nodemailer.createTransport({
    host: "127.0.0.1",
    port: listener.port,
    secure: false,
    ignoreTLS: true,
  });
  try {
    return await transport.sendMail({ envelope: { from, to }, raw });
  } finally {
    transport.close();
  }
}

async function refusal(to: string[], raw: Buffer): Promise<SmtpFailure> {
  try {
    await send(to, raw);
  } catch (error) {
    return error as SmtpFailure;
  }
  throw new Error("the listener accepted the message");
}

test("a DSN to bounces+token is handed over with its envelope, and reads as the bounce it is", async () => {
  const before = received.length;
  // A relay may have changed the case of the local part (nodemailer lowercases the domain).
  const shouted = VERP.replace(/^[^@]+/, (local) => local.toUpperCase());
  const info = await send([shouted], dsn);
  expect(info.accepted).toEqual([shouted]);
  expect(received).toHaveLength(before + 1);
  const { raw, envelope } = received.at(-1)!;
  expect(envelope).toEqual({ mailFrom: "", rcptTo: [shouted] });
  expect(raw.toString().replace(/\r\n/g, "\n")).toBe(dsn.toString());
  const report = await readReport(raw);
  expect(report).toMatchObject({ kind: "bounce", permanent: true, addressedTo: [VERP] });
  expect(messageOfVerp(envelope.rcptTo[0]!, BOUNCES, "fixture-verp-key")).toBe(48213);
});

test("the bare bounce address is taken too (feedback loops write to it)", async () => {
  const info = await send([BOUNCES], dsn, "fbl@feedback.pinemail.example");
  expect(info.accepted).toEqual([BOUNCES]);
  expect(received.at(-1)!.envelope).toEqual({
    mailFrom: "fbl@feedback.pinemail.example",
    rcptTo: [BOUNCES],
  });
});

test("any other recipient is refused with 550: never a relay", async () => {
  const before = received.length;
  for (const other of [
    "someone@example.com",
    "hello@tieout.ai",
    "bounces@tieout.ai.example.com",
    "bouncesx@tieout.ai",
  ]) {
    const error = await refusal([other], dsn);
    expect(error.responseCode, other).toBe(550);
  }
  // With a good recipient beside it, only the good one gets the message.
  const info = await send([VERP, "victim@example.com"], dsn);
  expect(info.accepted).toEqual([VERP]);
  expect(info.rejected).toEqual(["victim@example.com"]);
  expect(received.at(-1)!.envelope.rcptTo).toEqual([VERP]);
  expect(received).toHaveLength(before + 1);
});

test("a message over 1 MB is refused with 552 and never handed over", async () => {
  const before = received.length;
  const big = Buffer.concat([dsn, Buffer.from(`${"x".repeat(998)}\r\n`.repeat(1100))]);
  const error = await refusal([VERP], big);
  expect(error.responseCode).toBe(552);
  expect(received).toHaveLength(before);
});

test("a handler that throws answers 451, so the sender tries again later", async () => {
  failNext = true;
  const error = await refusal([VERP], dsn);
  expect(error.responseCode).toBe(451);
  expect(captured.events("bounces.smtp_handle_error")[0]).toMatchObject({
    err: { message: "the database is down" },
    rcptTo: [VERP],
  });
  // And the next attempt goes through.
  await send([VERP], dsn);
  expect(received.at(-1)!.envelope.rcptTo).toEqual([VERP]);
});

test("a bounce address that is not plain stops start-up", async () => {
  await expect(
    startBounceListener({
      port: 0,
      host: "127.0.0.1",
      bounceAddress: "bounces+x@tieout.ai",
      log: captured.log,
      handle: async () => {},
    }),
  ).rejects.toThrow(/already has a "\+"/);
});
