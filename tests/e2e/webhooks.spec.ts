/**
 * Signed webhooks (issue 37, decision 046), as the administrator and a receiving system meet them:
 * an endpoint added on /admin/webhooks with its secret shown once; events written with the changes
 * they report and delivered, signed the Standard Webhooks way, to a real HTTPS receiver that checks
 * the signatures with the same package; a test event; a retry after a failure that honours
 * Retry-After; a rotation whose old secret keeps signing; a 410 that disables the endpoint and
 * mails the administrators. The production build on this spec's own server, which trusts the
 * receiver's certificate through NODE_EXTRA_CA_CERTS, as an operator's self-signed receiver would.
 */
import type { Page } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { asAdmin } from "#tests/support/accounts.ts";
import { E2E_ADMIN_EMAIL } from "#tests/support/e2e-env.ts";
import { uniqueEmail } from "#tests/support/emulator.ts";
import { axeViolations, expect, test } from "#tests/support/fixtures.ts";
import { confirmedLead, mailsTo } from "#tests/support/mailbox.ts";
import {
  RECEIVER_CERT,
  startWebhookReceiver,
  type Received,
  type WebhookReceiver,
} from "#tests/support/webhook-receiver.ts";
import { submitToWaitlist } from "#tests/support/waitlist-db.ts";

test.describe.configure({ timeout: 180_000 });
test.use({
  ownServerEnv: {
    ADMIN_EMAILS: E2E_ADMIN_EMAIL,
    WEBHOOKS_ALLOW_PRIVATE: "true",
    NODE_EXTRA_CA_CERTS: RECEIVER_CERT,
  },
});

let receiver: WebhookReceiver;
test.beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
test.afterAll(async () => {
  await receiver.close();
});

type Event = { type: string; timestamp: string; data: Record<string, unknown> };

/** The request's body, once its signature is checked against every secret given. */
function verified(request: Received, ...secrets: string[]): Event {
  for (const secret of secrets) new Webhook(secret).verify(request.body, request.headers);
  return JSON.parse(request.body) as Event;
}

/** The requests that came after the first `from`, once there are `n` of them. */
async function next(from: number, n: number): Promise<Received[]> {
  return (await receiver.waitFor(from + n)).slice(from);
}

async function addEndpoint(page: Page, url: string, events: string[]): Promise<string> {
  await page.getByLabel("Endpoint address").fill(url);
  await page.getByLabel("Description (optional)").fill("The CRM");
  for (const event of events)
    await page
      .getByRole("checkbox", { name: new RegExp(`^${event.replace(".", "\\.")}:`) })
      .check();
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const secret = page.getByRole("region", { name: "Signing secret" }).getByLabel("Secret");
  await expect(secret).toHaveValue(/^whsec_/);
  return secret.inputValue();
}

test("an endpoint hears of entries, signed; a test event, a retry, a rotation and a 410 behave as the spec says", async ({
  browser,
  ownServer: server,
  mailSink: smtp,
}) => {
  const context = await browser.newContext();
  try {
    await asAdmin(context, server, async () => {
      const admin = await context.newPage();
      await admin.goto(`${server.url}/admin/webhooks`);
      await expect(admin.getByText("No endpoint yet: add one below.")).toBeVisible();
      expect(await axeViolations(admin)).toEqual([]);

      // Refused with a sentence, nothing saved: not https, then no event.
      await admin.getByLabel("Endpoint address").fill("http://localhost/hook");
      await admin.getByRole("checkbox", { name: /^entry\.created:/ }).check();
      await admin.getByRole("button", { name: "Add endpoint" }).click();
      await expect(admin.getByText("The address must start with https://")).toBeVisible();
      await admin.getByLabel("Endpoint address").fill(receiver.url("/none"));
      await admin.getByRole("checkbox", { name: /^entry\.created:/ }).uncheck();
      await admin.getByRole("button", { name: "Add endpoint" }).click();
      await expect(admin.getByText("Pick at least one event to send.")).toBeVisible();
      await expect(admin.getByText("No endpoint yet: add one below.")).toBeVisible();

      const secret = await addEndpoint(admin, receiver.url("/hooks/crm"), [
        "entry.created",
        "entry.confirmed",
        "entry.removed",
      ]);
      expect(await axeViolations(admin)).toEqual([]);
      // Shown once: the page opened again has no secret on it.
      await admin.goto(`${server.url}/admin/webhooks`);
      await expect(admin.getByRole("region", { name: "Signing secret" })).toHaveCount(0);
      await expect(admin.getByRole("link", { name: receiver.url("/hooks/crm") })).toBeVisible();

      // A lead joins and confirms: two events, in order, each signed and carrying no token.
      const email = uniqueEmail("hooked");
      const before = receiver.received.length;
      const answersLink = await confirmedLead(server.url, smtp, { name: "Hana Hook", email });
      const [created, confirmed] = await next(before, 2);
      expect(created!.path).toBe("/hooks/crm");
      expect(created!.headers["webhook-id"]).toMatch(/^msg_/);
      expect(created!.headers["content-type"]).toBe("application/json");
      expect(verified(created!, secret)).toMatchObject({
        type: "entry.created",
        data: { email, name: "Hana Hook", state: "waiting" },
      });
      expect(verified(confirmed!, secret)).toMatchObject({
        type: "entry.confirmed",
        data: { email, state: "confirmed" },
      });
      const token = new URL(answersLink).searchParams.get("token")!;
      for (const request of [created!, confirmed!]) {
        expect(request.body).not.toContain(token);
        expect(request.body).not.toMatch(/token|\/waitlist\/(confirm|remove)/);
      }
      // A forged signature fails the package's own check.
      expect(() =>
        verified(created!, `whsec_${Buffer.from("not the secret").toString("base64")}`),
      ).toThrow();

      // The endpoint's page: a test event, answered 503 with Retry-After first, then delivered.
      await admin.getByRole("link", { name: receiver.url("/hooks/crm") }).click();
      await expect(admin.getByRole("heading", { name: "Webhook endpoint" })).toBeVisible();
      receiver.answer({ status: 503, headers: { "Retry-After": "1" } });
      const beforeTest = receiver.received.length;
      await admin.getByRole("button", { name: "Send test event" }).click();
      await expect(admin.getByText(/A test event \(msg_[^)]+\) is on its way/)).toBeVisible();
      const [refused, retried] = await next(beforeTest, 2);
      expect(verified(refused!, secret).type).toBe("webhook.test");
      // The same message, the same id, on every try.
      expect(retried!.headers["webhook-id"]).toBe(refused!.headers["webhook-id"]);
      expect(verified(retried!, secret).type).toBe("webhook.test");
      await admin.reload();
      const log = admin.getByRole("region", { name: "Delivery log" });
      await expect(log.getByRole("row").filter({ hasText: "webhook.test" })).toHaveCount(2);
      await expect(
        log.getByRole("row").filter({ hasText: "Failed; tried again later" }),
      ).toContainText("503");
      await expect(log.getByRole("row").filter({ hasText: "Delivered" }).first()).toContainText(
        "200",
      );
      expect(await axeViolations(admin)).toEqual([]);

      // Rotation: the new secret is shown once, and for 24 hours both sign every event.
      await admin.getByRole("button", { name: "Rotate secret" }).click();
      const rotated = admin.getByRole("region", { name: "Signing secret" }).getByLabel("Secret");
      await expect(rotated).toHaveValue(/^whsec_/);
      const newSecret = await rotated.inputValue();
      expect(newSecret).not.toBe(secret);
      await expect(admin.getByText(/the one before also signs until/)).toBeVisible();
      const beforeRemove = receiver.received.length;
      // The entry is erased (the admin's Remove): the endpoint hears its number, nothing more.
      const list = await context.newPage();
      await list.goto(`${server.url}/admin/waitlist?q=${encodeURIComponent(email)}`);
      await list.getByRole("button", { name: `Remove ${email}` }).click();
      await expect(list.getByText("No entries match.")).toBeVisible();
      const [removed] = await next(beforeRemove, 1);
      // Checked under each secret: the old and the new both sign it.
      const entryId = verified(created!, secret).data.id;
      expect(verified(removed!, secret, newSecret)).toEqual({
        type: "entry.removed",
        timestamp: expect.any(String) as unknown as string,
        data: { id: entryId },
      });
      expect(removed!.body).not.toContain(email);
      expect(removed!.headers["webhook-signature"]!.split(" ")).toHaveLength(2);

      // 410 Gone: the endpoint is disabled, and the administrators hear of it.
      receiver.answer({ status: 410 });
      const beforeGone = receiver.received.length;
      await admin.getByRole("button", { name: "Send test event" }).click();
      await next(beforeGone, 1);
      await expect
        .poll(
          async () => {
            await admin.reload();
            return admin.getByText(/Disabled since .*: it answered 410 Gone/).count();
          },
          { timeout: 20_000 },
        )
        .toBe(1);
      await expect(admin.getByRole("button", { name: "Send test event" })).toHaveCount(0);
      await expect
        .poll(() =>
          mailsTo(smtp, E2E_ADMIN_EMAIL).some(
            (mail) =>
              mail.subject === "A Tieout webhook endpoint was disabled" &&
              mail.text.includes(receiver.url("/hooks/crm")),
          ),
        )
        .toBe(true);
      // Disabled, it hears nothing more: a new lead writes no event for it.
      const afterGone = receiver.received.length;
      expect(
        (await submitToWaitlist(server.url, { name: "Quiet", email: uniqueEmail("quiet") })).status,
      ).toBe(202);
      await admin.getByRole("button", { name: "Enable" }).click();
      await expect(admin.getByText("The endpoint is enabled")).toBeVisible();
      expect(receiver.received.length).toBe(afterGone);

      // Every change is an Activity row.
      await admin.goto(`${server.url}/admin/activity`);
      for (const what of [
        "Webhook endpoint added",
        "Webhook test event sent",
        "Webhook secret rotated",
        "Webhook endpoint enabled",
      ])
        await expect(admin.getByRole("cell", { name: what }).first()).toBeVisible();
      await expect(admin.getByRole("main")).not.toContainText(secret);

      // Removed (a passkey step-up, fresh here), it is gone from the list.
      await admin.goto(`${server.url}/admin/webhooks`);
      await admin.getByRole("link", { name: receiver.url("/hooks/crm") }).click();
      await admin.getByRole("button", { name: "Remove endpoint" }).click();
      await expect(admin).toHaveURL(`${server.url}/admin/webhooks`);
      await expect(admin.getByText("No endpoint yet: add one below.")).toBeVisible();
    });
  } finally {
    await context.close();
  }
});

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("an endpoint is added, its secret shown once, a test event sent signed, and removed", async ({
    browser,
    ownServer: server,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      await asAdmin(context, server, async () => {
        const admin = await context.newPage();
        await admin.goto(`${server.url}/admin/webhooks`);
        const secret = await addEndpoint(admin, receiver.url("/hooks/plain"), ["entry.created"]);
        await admin.goto(`${server.url}/admin/webhooks`);
        await admin.getByRole("link", { name: receiver.url("/hooks/plain") }).click();
        const before = receiver.received.length;
        await admin.getByRole("button", { name: "Send test event" }).click();
        await expect(admin.getByText(/A test event \(msg_[^)]+\) is on its way/)).toBeVisible();
        const [test] = await next(before, 1);
        expect(test!.path).toBe("/hooks/plain");
        expect(verified(test!, secret).type).toBe("webhook.test");
        await admin.getByRole("button", { name: "Remove endpoint" }).click();
        await expect(admin).toHaveURL(`${server.url}/admin/webhooks`);
        await expect(admin.getByRole("link", { name: receiver.url("/hooks/plain") })).toHaveCount(
          0,
        );
      });
    } finally {
      await context.close();
    }
  });
});
