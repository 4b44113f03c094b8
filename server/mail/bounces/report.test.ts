import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { readReport, type Report } from "#server/mail/bounces/report.ts";
import { messageOfVerp } from "#server/mail/bounces/verp.ts";

/** The key the fixtures' VERP addresses were made with. */
const FIXTURE_KEY = "fixture-verp-key";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}.eml`, import.meta.url));

/** The same message with the CRLF line ends it has on the wire and over IMAP. */
const crlf = (raw: Buffer) =>
  Buffer.from(raw.toString("latin1").replace(/\r?\n/g, "\r\n"), "latin1");

describe("delivery status notifications", () => {
  test("Postfix, user unknown (5.1.1): a permanent bounce for the original recipient", async () => {
    const expected: Report = {
      kind: "bounce",
      permanent: true,
      recipients: [
        {
          address: "m.okafor@lakeside-dental.example",
          action: "failed",
          status: "5.1.1",
          diagnostic:
            "550 5.1.1 <m.okafor@lakeside-dental.example>: Recipient address rejected: User unknown in virtual mailbox table",
        },
      ],
      addressedTo: ["bounces+1179-48e230f3b61dd0a8@tieout.ai"],
      originalMessageId: "<3c1f6b0e-8d2a-4f1e-9a57-2b6d4e0c9f13@tieout.ai>",
    };
    expect(await readReport(fixture("postfix-user-unknown"))).toEqual(expected);
  });

  test("Postfix, still retrying a full mailbox (delayed, 4.2.2): soft, headers-only original", async () => {
    expect(await readReport(fixture("postfix-delayed"))).toEqual({
      kind: "bounce",
      permanent: false,
      recipients: [
        {
          address: "j.brandt@harbourfreight-co.example",
          action: "delayed",
          status: "4.2.2",
          diagnostic: "452 4.2.2 Mailbox full",
        },
      ],
      addressedTo: ["bounces+117a-fccf7c3cceacb7da@tieout.ai"],
      // Folded onto a line of its own in the returned headers.
      originalMessageId: "<9e4d27a1-5b3c-4c8e-b1f0-7a2e6d3c8b45@tieout.ai>",
    });
  });

  test("a hosted provider, address not found: HTML notice, folded diagnostic, uppercase To", async () => {
    const report = await readReport(fixture("provider-user-unknown"));
    expect(report).toMatchObject({
      kind: "bounce",
      permanent: true,
      recipients: [
        { address: "priya.natarajan@pinemail.example", action: "failed", status: "5.1.1" },
      ],
      addressedTo: ["bounces+117b-0797a64cfa3d08ed@tieout.ai"],
      originalMessageId: "<5a0c8e21-77d4-4b9a-8f36-c1e2d9a04b6e@tieout.ai>",
    });
    expect(report.kind === "bounce" && report.recipients[0]?.diagnostic).toMatch(
      /^550-5\.1\.1 The email account that you tried to reach does not exist\. .* - gsmtp$/,
    );
  });

  test("a hosted provider that gave up on a full mailbox (failed, 4.2.2) is still soft", async () => {
    // Its delivery-status part is base64, its envelope recipient in Envelope-To.
    expect(await readReport(fixture("provider-mailbox-full"))).toEqual({
      kind: "bounce",
      permanent: false,
      recipients: [
        {
          address: "lars.eriksson@fjordline-logistics.example",
          action: "failed",
          status: "4.2.2",
          diagnostic:
            "554 4.2.2 mailbox full; STOREDRV.Deliver.Exception:QuotaExceededException.MapiExceptionShutoffQuotaExceeded",
        },
      ],
      addressedTo: ["bounces+117c-f44c260499621679@tieout.ai"],
      originalMessageId: "<e71b9c34-0d5a-4f28-b6e3-98c1a2d4f057@tieout.ai>",
    });
  });

  test("CRLF line ends read the same", async () => {
    for (const name of ["postfix-user-unknown", "provider-mailbox-full", "arf-abuse"])
      expect(await readReport(crlf(fixture(name)))).toEqual(await readReport(fixture(name)));
  });

  test("the VERP address among addressedTo names the outbox row", async () => {
    const report = await readReport(fixture("postfix-user-unknown"));
    const rows = report.addressedTo.map((a) => messageOfVerp(a, "bounces@tieout.ai", FIXTURE_KEY));
    expect(rows).toEqual([48213]);
    const upper = await readReport(fixture("provider-user-unknown"));
    expect(
      upper.addressedTo.map((a) => messageOfVerp(a, "bounces@tieout.ai", FIXTURE_KEY)),
    ).toEqual([48215]);
  });

  test("several recipients: permanent when any failed with 5.x.x, each one reported", async () => {
    const report = await readReport(
      dsn(
        "Final-Recipient: rfc822; a@example.net\nAction: delayed\nStatus: 4.4.1\n\n" +
          "Final-Recipient: rfc822; <B@Example.net>\nAction: failed (bad mailbox)\nStatus: 5.1.1 (unknown)\n\n" +
          "Final-Recipient: rfc822; c@example.net\nAction: delivered\nStatus: 2.0.0\n",
      ),
    );
    expect(report).toMatchObject({
      kind: "bounce",
      permanent: true,
      recipients: [
        { address: "a@example.net", action: "delayed", status: "4.4.1" },
        { address: "b@example.net", action: "failed", status: "5.1.1" },
        { address: "c@example.net", action: "delivered", status: "2.0.0" },
      ],
    });
  });
});

/** A minimal multipart/report around the given delivery-status body. */
function dsn(status: string): Buffer {
  return Buffer.from(
    [
      "To: bounces+1-0000000000000000@tieout.ai",
      "From: MAILER-DAEMON@relay.example",
      "Subject: Delivery Status Notification",
      "MIME-Version: 1.0",
      'Content-Type: multipart/report; report-type=delivery-status; boundary="b"',
      "",
      "--b",
      "Content-Type: text/plain",
      "",
      "Something happened.",
      "--b",
      "Content-Type: message/delivery-status",
      "",
      "Reporting-MTA: dns; relay.example",
      "",
      status,
      "--b--",
      "",
    ].join("\n"),
  );
}

describe("feedback reports", () => {
  test("an ARF abuse report from a feedback loop is a complaint about the original recipient", async () => {
    expect(await readReport(fixture("arf-abuse"))).toEqual({
      kind: "complaint",
      feedbackType: "abuse",
      originalRecipient: "olu.adeyemi@pinemail.example",
      // Feedback loops write to the address registered with them, not to the VERP address.
      addressedTo: ["bounces@tieout.ai"],
      originalMessageId: "<b84f2d17-6c0e-4a93-85d1-0e3f7a9c2b68@tieout.ai>",
    });
  });
});

describe("anything else is unparsed, with a reason", () => {
  test("a vacation auto-reply", async () => {
    expect(await readReport(fixture("vacation-reply"))).toEqual({
      kind: "unparsed",
      reason: "not a delivery or feedback report",
      addressedTo: ["bounces+117e-0f9254365540e8fb@tieout.ai"],
    });
  });

  test("a delivery report with no recipients, or only good news", async () => {
    expect(await readReport(dsn(""))).toMatchObject({
      kind: "unparsed",
      reason: "delivery report without recipients",
      addressedTo: ["bounces+1-0000000000000000@tieout.ai"],
    });
    expect(
      await readReport(
        dsn("Final-Recipient: rfc822; a@example.net\nAction: relayed\nStatus: 2.0.0\n"),
      ),
    ).toMatchObject({
      kind: "unparsed",
      reason: "delivery report without a failed or delayed recipient",
    });
  });

  test("a feedback report without its type", async () => {
    const raw = fixture("arf-abuse").toString().replace("Feedback-Type: abuse\n", "");
    expect(await readReport(Buffer.from(raw))).toMatchObject({
      kind: "unparsed",
      reason: "feedback report without Feedback-Type",
    });
  });

  test("more than 1 MB, without reading its body, though whose it was is still known", async () => {
    const big = Buffer.concat([fixture("postfix-user-unknown"), Buffer.alloc(1024 * 1024, "x")]);
    expect(await readReport(big)).toEqual({
      kind: "unparsed",
      reason: "larger than 1 MB",
      addressedTo: ["bounces+1179-48e230f3b61dd0a8@tieout.ai"],
    });
  });

  test("garbage bytes, an empty message and broken MIME never throw", async () => {
    expect(await readReport(fixture("garbage"))).toMatchObject({ kind: "unparsed" });
    expect(await readReport(Buffer.alloc(0))).toEqual({
      kind: "unparsed",
      reason: "not a delivery or feedback report",
      addressedTo: [],
    });
    const broken = Buffer.from(
      'Content-Type: multipart/report; report-type=delivery-status; boundary="x"\n\n--x\nContent-Type: message/delivery-status\nContent-Transfer-Encoding: base64\n\n!!!not base64!!!\n',
    );
    expect(await readReport(broken)).toMatchObject({ kind: "unparsed" });
  });
});
