/**
 * The choices a person has over the site's mail to the list (decision 041), as they meet them: the
 * unticked "Also send me product news" box on the confirmation page, "Mail from us" on /account
 * (with and without JavaScript), and the unsubscribe link and one-click header of a real broadcast;
 * then a bounce for a broadcast mail, sent to the bounce address of a server that listens for
 * them, suppressing its recipient and counted on the broadcast's page.
 *
 * Each test makes entries of its own, under a tag of its own that the administrator's audience
 * searches for, so what is counted and sent is the test's alone. The administrator signs in with
 * a session just verified by their passkey, so starting a send asks for no further step-up.
 */
import type { Browser, Page } from "@playwright/test";
import nodemailer from "nodemailer";
import {
  MAIN_SERVER,
  signInBrowserVerified,
  signOut,
  type Account,
} from "#tests/support/accounts.ts";
import { codesFromSink } from "#tests/support/admin-passkey.ts";
import { BASE_URL, E2E_ADMIN_EMAIL } from "#tests/support/e2e-env.ts";
import { axeViolations, expect, HYDRATED_PAGE, test } from "#tests/support/fixtures.ts";
import { confirmedLead } from "#tests/support/mailbox.ts";
import { startServer } from "#tests/support/server.ts";
import { closedPort } from "#tests/support/test-smtp.ts";
import { inboxMail } from "#tests/support/local-inbox.ts";
import { submitToWaitlist } from "#tests/support/waitlist-db.ts";

test.describe.configure({ timeout: 120_000 });
// The bounce test's server sends its mail to this spec's sink (decision 037); its own settings,
// a free port for its bounce listener among them, are known only in the test.
test.use({ ownServerEnv: {} });

const FORM = { "Content-Type": "application/x-www-form-urlencoded" };
const CONFIRM_SUBJECT = "Confirm your place on the Tieout waitlist";

/** A tag of this test's own, for addresses and the company its entries share. */
const newTag = () => `mc${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

/** A header of a raw message, its folded lines joined, or undefined. */
function headerOf(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, " ");
  const escaped = name.replace(/[-]/g, "\\-");
  return new RegExp(`^${escaped}:[ \\t]*(.*)$`, "im").exec(head)?.[1]?.trim();
}

/** The path and query of the confirmation link in the newest confirmation mail to `email`. */
async function confirmLinkOf(email: string): Promise<string> {
  const { text } = await inboxMail(email, CONFIRM_SUBJECT);
  const link = /\/waitlist\/confirm\?token=[\w-]+/.exec(text)?.[0];
  expect(link, "the confirmation link").toBeTruthy();
  return link!;
}

/**
 * A lead who joined through the API and pressed the button behind their confirmation mail, with
 * the product news box ticked or not, as a script holding the link would.
 */
async function confirmedEntry(
  lead: { name: string; email: string; company: string },
  productNews = false,
) {
  expect((await submitToWaitlist(BASE_URL, lead)).status).toBe(202);
  const token = new URL(await confirmLinkOf(lead.email), BASE_URL).searchParams.get("token")!;
  const form = new URLSearchParams({ token });
  if (productNews) form.set("product_news", "yes");
  const pressed = await fetch(`${BASE_URL}/waitlist/confirm`, {
    method: "POST",
    headers: FORM,
    body: form,
  });
  expect(pressed.status).toBe(200);
}

/**
 * An administrator's own browser window on `server`, signed in and verified with the passkey just
 * now (so a send needs no further step-up); its page fails the test on an uncaught error.
 */
async function adminWindow(
  browser: Browser,
  server: Parameters<typeof signInBrowserVerified>[1],
  admin: Account,
) {
  const context = await browser.newContext({ baseURL: server.url });
  const { cookie } = await signInBrowserVerified(context, server, admin);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  return {
    page,
    async close() {
      try {
        expect(errors, "the admin's page logged errors").toEqual([]);
      } finally {
        await signOut(server.url, cookie);
        await context.close();
      }
    },
  };
}

type Draft = {
  kind: "Waitlist news" | "Product news";
  subject: string;
  body: string;
  search: string;
};

/** A draft to the confirmed entries matching `search`, saved; resolves with whom it reaches. */
async function saveDraft(page: Page, draft: Draft) {
  await page.goto("/admin/broadcasts/new");
  await page.getByRole("radio", { name: new RegExp(`^${draft.kind}`) }).check();
  await page.getByLabel("Subject").fill(draft.subject);
  await page.getByLabel("Body").fill(draft.body);
  await page.getByRole("checkbox", { name: "Confirmed" }).check();
  await page.getByLabel("Name, email or company contains").fill(draft.search);
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByRole("status")).toHaveText("Draft saved.");
  return page.getByRole("region", { name: "Who it goes to" });
}

/** Sends the saved draft on the page now; resolves once the last mail is handed over. */
async function sendNow(page: Page, recipients: number) {
  await page.locator(HYDRATED_PAGE).waitFor();
  await page.getByRole("button", { name: "Send now" }).click();
  await expect(page.getByRole("status")).toHaveText(
    `Sending has started to ${recipients} ${recipients === 1 ? "recipient" : "recipients"}.`,
  );
  await expect(page.getByRole("heading", { name: "Status: Finished" })).toBeVisible({
    timeout: 30_000,
  });
  return page.url();
}

/** The broadcast's progress figure for `what` ("unsubscribed", "bounced"), reloaded until it is `n`. */
async function expectFigure(page: Page, url: string, what: string, n: number) {
  await expect(async () => {
    await page.goto(url);
    await expect(
      page.getByRole("list", { name: "Progress" }).getByRole("listitem").filter({ hasText: what }),
    ).toHaveText(`${n} ${what}`, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
}

/** The suppression list searched for `address`, as the administrator sees it. */
async function suppressionsOf(page: Page, address: string) {
  await page.goto(`/admin/suppressions?q=${encodeURIComponent(address)}`);
  return page.getByRole("region", { name: "Suppressed addresses" });
}

test("the confirmation page offers product news unticked: ticked, the person gets product news; left alone, they do not", async ({
  page,
  browser,
  admin,
}) => {
  const tag = newTag();
  const company = `Ledger ${tag} LLP`;
  const ada = { name: "Ada Ticks", email: `ada-${tag}@example.com`, company };
  const ben = { name: "Ben Leaves", email: `ben-${tag}@example.com`, company };
  for (const lead of [ada, ben]) expect((await submitToWaitlist(BASE_URL, lead)).status).toBe(202);

  // Ada opens her link: the box is there, unticked; she ticks it and confirms.
  await page.goto(await confirmLinkOf(ada.email));
  await expect(page.getByRole("heading", { level: 1, name: "Confirm your address" })).toBeVisible();
  const box = page.getByRole("checkbox", { name: "Also send me product news" });
  await expect(box).not.toBeChecked();
  await expect(box).toHaveAccessibleDescription(/one-click unsubscribe/);
  expect(await axeViolations(page)).toEqual([]);
  await box.check();
  await page.getByRole("button", { name: "Confirm my address" }).click();
  await expect(
    page.getByRole("heading", { level: 1, name: "Your address is confirmed" }),
  ).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);

  // Ben confirms without touching it.
  await page.goto(await confirmLinkOf(ben.email));
  await expect(page.getByRole("checkbox", { name: "Also send me product news" })).not.toBeChecked();
  await page.getByRole("button", { name: "Confirm my address" }).click();
  await expect(
    page.getByRole("heading", { level: 1, name: "Your address is confirmed" }),
  ).toBeVisible();

  const office = await adminWindow(browser, MAIN_SERVER, admin);
  try {
    // Both are confirmed: waitlist news reaches both of them.
    const news = await saveDraft(office.page, {
      kind: "Waitlist news",
      subject: `Waitlist ${tag}`,
      body: "Not sent.",
      search: tag,
    });
    await expect(news).toContainText("This goes to 2 people.");

    // Product news reaches only the one who ticked the box, and she gets it.
    const subject = `Product news ${tag}`;
    const reach = await saveDraft(office.page, {
      kind: "Product news",
      subject,
      body: "Exports to CSV are here.",
      search: tag,
    });
    await expect(reach).toContainText("This goes to 1 person.");
    await sendNow(office.page, 1);
    await expect(office.page.getByText(/^Out of 1 recipient,/)).toBeVisible();
    const { text } = await inboxMail(ada.email, subject);
    expect(text).toContain("Exports to CSV are here.");
    expect(text).toContain("Unsubscribe from product news");
  } finally {
    await office.close();
  }
});

test("/account shows a member the mail they get from us, and saves a change of both choices", async ({
  page,
  signedInUser,
}) => {
  // An account that holds no waitlist entry has nothing to choose.
  await page.goto("/account");
  await expect(page.getByRole("heading", { level: 1, name: "Account" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Mail from us" })).toHaveCount(0);

  await confirmedEntry({
    name: "Cam Member",
    email: signedInUser.email,
    company: `Ledger ${newTag()} LLP`,
  });
  await page.reload();
  const mail = page.getByRole("region", { name: "Mail from us" });
  const waitlistNews = mail.getByRole("checkbox", { name: "Send me waitlist news" });
  const productNews = mail.getByRole("checkbox", { name: "Also send me product news" });
  await expect(waitlistNews).toBeChecked();
  await expect(productNews).not.toBeChecked();
  expect(await axeViolations(page)).toEqual([]);

  await page.locator(HYDRATED_PAGE).waitFor();
  await waitlistNews.uncheck();
  await productNews.check();
  await mail.getByRole("button", { name: "Save my mail choices" }).click();
  await expect(mail.getByRole("status")).toHaveText("Saved: your mail choices are as shown.");
  expect(await axeViolations(page)).toEqual([]);

  await page.reload();
  await expect(waitlistNews).not.toBeChecked();
  await expect(productNews).toBeChecked();
  await expect(mail.getByRole("status")).toHaveCount(0);
});

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("/account's mail choices are saved by the plain form", async ({ page, signedInUser }) => {
    await confirmedEntry(
      { name: "Dee Plain", email: signedInUser.email, company: `Ledger ${newTag()} LLP` },
      true,
    );
    await page.goto("/account");
    const mail = page.getByRole("region", { name: "Mail from us" });
    const waitlistNews = mail.getByRole("checkbox", { name: "Send me waitlist news" });
    const productNews = mail.getByRole("checkbox", { name: "Also send me product news" });
    // The box ticked on the confirmation page shows here.
    await expect(waitlistNews).toBeChecked();
    await expect(productNews).toBeChecked();

    await productNews.uncheck();
    await mail.getByRole("button", { name: "Save my mail choices" }).click();
    await expect(page).toHaveURL(/\/account(\?index)?$/);
    await expect(page.getByRole("region", { name: "Mail from us" }).getByRole("status")).toHaveText(
      "Saved: your mail choices are as shown.",
    );
    // axe needs the page's JavaScript; the same page with it is checked in the test above.

    await page.goto("/account");
    await expect(waitlistNews).toBeChecked();
    await expect(productNews).not.toBeChecked();
  });
});

test("a broadcast's unsubscribe link asks first, then stops that kind alone; the mail client's one-click does too; a forged link changes nothing", async ({
  page,
  browser,
  admin,
}) => {
  const tag = newTag();
  const company = `Ledger ${tag} LLP`;
  const cy = { name: "Cy Reader", email: `cy-${tag}@example.com`, company };
  const di = { name: "Di Client", email: `di-${tag}@example.com`, company };
  await confirmedEntry(cy, true);
  await confirmedEntry(di);

  const office = await adminWindow(browser, MAIN_SERVER, admin);
  const desk = office.page;
  try {
    const subject = `Beta dates ${tag}`;
    const reach = await saveDraft(desk, {
      kind: "Waitlist news",
      subject,
      body: "The beta opens in **March**.",
      search: tag,
    });
    await expect(reach).toContainText("This goes to 2 people.");
    const progress = await sendNow(desk, 2);

    // Cy's mail: a visible link, and the same address in its one-click header.
    const cyMail = await inboxMail(cy.email, subject);
    const link = /Unsubscribe from waitlist news: (\S+)/.exec(cyMail.text)?.[1];
    expect(link, "the visible unsubscribe link").toMatch(/\/unsubscribe\?token=[\w.]+$/);
    expect(headerOf(cyMail.raw, "List-Unsubscribe")).toBe(`<${link}>`);
    expect(headerOf(cyMail.raw, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");

    // A mail scanner opens the link, and so does Cy: a page with a button, and nothing changed.
    const scanned = await fetch(link!);
    expect(scanned.status).toBe(200);
    await page.goto(link!);
    await expect(
      page.getByRole("heading", { level: 1, name: "Unsubscribe from waitlist news" }),
    ).toBeVisible();
    await expect(page.getByRole("main")).toContainText(
      "Stop emailing waitlist news to c***@example.com? Your place on the waitlist stays as it is.",
    );
    expect(await axeViolations(page)).toEqual([]);
    await expectFigure(desk, progress, "unsubscribed", 0);
    await expect((await suppressionsOf(desk, cy.email)).getByRole("cell")).toHaveText([
      "No suppression matches.",
    ]);

    // Cy presses the button: waitlist news stops for Cy, and the page says so.
    await page.getByRole("button", { name: "Unsubscribe" }).click();
    await expect(
      page.getByRole("heading", { level: 1, name: "You are unsubscribed" }),
    ).toBeVisible();
    await expect(page.getByRole("main")).toContainText(
      "We will not email you waitlist news again. Your place on the waitlist stays as it is",
    );
    expect(await axeViolations(page)).toEqual([]);

    await expectFigure(desk, progress, "unsubscribed", 1);
    const cyRow = (await suppressionsOf(desk, cy.email)).getByRole("row").filter({
      hasText: cy.email,
    });
    await expect(cyRow.getByRole("cell")).toHaveText([
      cy.email,
      "Waitlist news",
      "Unsubscribe",
      "unsubscribe page",
      /\d{4}/,
      "The site",
    ]);
    // Only that kind: product news, which Cy asked for, still reaches Cy; waitlist news does not.
    await expect(
      await saveDraft(desk, {
        kind: "Product news",
        subject: `Still ${tag}`,
        body: "Not sent.",
        search: cy.email,
      }),
    ).toContainText("This goes to 1 person.");
    await expect(
      await saveDraft(desk, {
        kind: "Waitlist news",
        subject: `Stopped ${tag}`,
        body: "Not sent.",
        search: cy.email,
      }),
    ).toContainText("This goes to nobody.");
    // The entry stays on the waitlist, as it was.
    await desk.goto(`/admin/waitlist?q=${encodeURIComponent(cy.email)}`);
    await expect(desk.getByRole("row").filter({ hasText: cy.email })).toContainText("Confirmed");

    // Di's mail client posts the one-click form to the header's address, without cookies.
    const diMail = await inboxMail(di.email, subject);
    const oneClick = /^<([^>]+)>$/.exec(headerOf(diMail.raw, "List-Unsubscribe") ?? "")?.[1];
    expect(oneClick, "Di's List-Unsubscribe header").toMatch(/\/unsubscribe\?token=[\w.]+$/);
    expect(oneClick).not.toBe(link);
    const clicked = await fetch(oneClick!, {
      method: "POST",
      headers: FORM,
      body: "List-Unsubscribe=One-Click",
    });
    expect(clicked.status).toBe(200);
    await expectFigure(desk, progress, "unsubscribed", 2);
    const diRow = (await suppressionsOf(desk, di.email)).getByRole("row").filter({
      hasText: di.email,
    });
    await expect(diRow.getByRole("cell").nth(3)).toHaveText("one-click from the mail client");

    // A link whose signature was altered, or that is not one at all: a clear page, no button.
    const token = new URL(link!).searchParams.get("token")!;
    const forged = token.slice(0, -1) + (token.endsWith("0") ? "1" : "0");
    for (const bad of [forged, "not-a-token"]) {
      await page.goto(`/unsubscribe?token=${encodeURIComponent(bad)}`);
      await expect(
        page.getByRole("heading", { level: 1, name: "This link no longer works" }),
      ).toBeVisible();
      await expect(page.getByRole("main")).toContainText("Nothing was changed.");
      await expect(page.getByRole("button", { name: "Unsubscribe" })).toHaveCount(0);
    }
    expect(await axeViolations(page)).toEqual([]);
    // Posted anyway, it is refused as gone.
    const forgedPost = await fetch(`${BASE_URL}/unsubscribe?token=${forged}`, {
      method: "POST",
      headers: FORM,
      body: "List-Unsubscribe=One-Click",
    });
    expect(forgedPost.status).toBe(410);
    await expectFigure(desk, progress, "unsubscribed", 2);
  } finally {
    await office.close();
  }
});

/** The address bounces come back to on the server of the bounce test. */
const BOUNCE_ADDRESS = "bounces@tieout.test";

/**
 * A delivery status notification (RFC 3464), as a receiving MTA returns it: a permanent failure
 * for `recipient`, quoting the headers of the mail it is about, sent to `to`.
 */
function deliveryReport(report: {
  to: string;
  recipient: string;
  messageId: string;
  subject: string;
  id: string;
}): Buffer {
  const boundary = `report-${report.id}`;
  return Buffer.from(
    [
      "From: MAILER-DAEMON@mx.example.net (Mail Delivery System)",
      `To: ${report.to}`,
      "Subject: Undelivered Mail Returned to Sender",
      "Date: Tue, 13 May 2025 08:42:17 +0000",
      `Message-ID: <${report.id}@mx.example.net>`,
      "Auto-Submitted: auto-replied",
      "MIME-Version: 1.0",
      `Content-Type: multipart/report; report-type=delivery-status; boundary="${boundary}"`,
      "",
      `--${boundary}`,
      "Content-Type: text/plain; charset=utf-8",
      "",
      `Your message to ${report.recipient} could not be delivered.`,
      "",
      `--${boundary}`,
      "Content-Type: message/delivery-status",
      "",
      "Reporting-MTA: dns; mx.example.net",
      "",
      `Final-Recipient: rfc822; ${report.recipient}`,
      "Action: failed",
      "Status: 5.1.1",
      `Diagnostic-Code: smtp; 550 5.1.1 <${report.recipient}>: User unknown`,
      "",
      `--${boundary}`,
      "Content-Type: text/rfc822-headers",
      "",
      `Message-ID: ${report.messageId}`,
      `To: ${report.recipient}`,
      `Subject: ${report.subject}`,
      "",
      `--${boundary}--`,
      "",
    ].join("\r\n"),
  );
}

/** Hands `raw` to an SMTP server on loopback as a remote MTA returning a bounce does. */
async function returnToSender(port: number, to: string, raw: Buffer) {
  const transport = nodemailer.createTransport({
    host: "127.0.0.1",
    port,
    secure: false,
    ignoreTLS: true,
  });
  try {
    const info = await transport.sendMail({ envelope: { from: "", to: [to] }, raw });
    expect(info.accepted).toEqual([to]);
  } finally {
    transport.close();
  }
}

test.describe("with a server that receives bounces", () => {
  test("a DSN for a broadcast mail, received by the server's bounce listener, suppresses its recipient and is counted", async ({
    browser,
    admin,
    mailSink,
  }) => {
    const bouncePort = await closedPort();
    const server = await startServer({
      ADMIN_EMAILS: E2E_ADMIN_EMAIL,
      SMTP_URL: mailSink.url,
      BOUNCE_ADDRESS,
      BOUNCE_SMTP_PORT: String(bouncePort),
    });
    const site = { ...server, adminCodes: codesFromSink(mailSink) };
    try {
      const tag = newTag();
      const company = `Ledger ${tag} LLP`;
      const eve = `eve-${tag}@example.com`;
      const fay = `fay-${tag}@example.com`;
      await confirmedLead(server.url, mailSink, { name: "Eve Gone", email: eve, company });
      await confirmedLead(server.url, mailSink, { name: "Fay Here", email: fay, company });

      const office = await adminWindow(browser, site, admin);
      const page = office.page;
      try {
        const reports = page.getByRole("region", { name: "Bounce reports" });
        await page.goto(`/admin/suppressions`);
        await expect(reports.getByRole("cell")).toHaveText([
          "No bounce report came back in the last 30 days.",
        ]);
        expect(await axeViolations(page)).toEqual([]);

        const subject = `Beta news ${tag}`;
        const reach = await saveDraft(page, {
          kind: "Waitlist news",
          subject,
          body: "The beta opens next week.",
          search: tag,
        });
        await expect(reach).toContainText("This goes to 2 people.");
        const progress = await sendNow(page, 2);
        await expectFigure(page, progress, "bounced", 0);

        // Eve's mail left with a return path of its own: the bounce address and a token.
        let sent: (typeof mailSink.received)[number] | undefined;
        await expect
          .poll(() => {
            sent = mailSink.received.find(
              (m) => m.to.includes(eve) && m.parsed.subject === subject,
            );
            return sent !== undefined;
          })
          .toBe(true);
        const returnPath = sent!.from;
        expect(returnPath).toMatch(/^bounces\+[0-9a-z]+-[0-9a-f]{16}@tieout\.test$/);

        // Eve's server refuses it for good, and its report comes back to the return path.
        await returnToSender(
          bouncePort,
          returnPath,
          deliveryReport({
            to: returnPath,
            recipient: eve,
            messageId: sent!.parsed.messageId!,
            subject,
            id: `${tag}-eve`,
          }),
        );
        // A report about no mail of ours: kept for a person to read.
        const stray = `<stray-${tag}@elsewhere.example>`;
        await returnToSender(
          bouncePort,
          BOUNCE_ADDRESS,
          deliveryReport({
            to: BOUNCE_ADDRESS,
            recipient: `someone-${tag}@elsewhere.example`,
            messageId: stray,
            subject: "Not ours",
            id: `${tag}-stray`,
          }),
        );

        await expectFigure(page, progress, "bounced", 1);
        expect(await axeViolations(page)).toEqual([]);

        await page.goto(`/admin/suppressions?q=${encodeURIComponent(eve)}`);
        const eveRow = page
          .getByRole("region", { name: "Suppressed addresses" })
          .getByRole("row")
          .filter({ hasText: eve });
        await expect(eveRow.getByRole("cell")).toHaveText([
          eve,
          "All mail",
          "Hard bounce",
          /5\.1\.1/,
          /\d{4}/,
          "The site",
        ]);
        await page.goto(`/admin/suppressions?q=${encodeURIComponent(fay)}`);
        await expect(
          page.getByRole("region", { name: "Suppressed addresses" }).getByRole("cell"),
        ).toHaveText(["No suppression matches."]);

        // The reports as they came: the one that needs a person first, with its message.
        await expect(reports.getByText("1 report needs a person to read it.")).toBeVisible();
        const rows = reports.getByRole("row").filter({ has: page.getByRole("cell") });
        await expect(rows).toHaveCount(2);
        await expect(rows.nth(0).getByRole("cell").nth(1)).toHaveText("SMTP listener");
        await expect(rows.nth(0).getByRole("cell").nth(2)).toHaveText("Names no mail of ours");
        await expect(rows.nth(0).getByRole("cell").nth(3)).toHaveText("Bounce");
        const message = rows.nth(0).getByRole("group");
        await expect(message.getByText(stray)).toBeHidden();
        await message.getByText("The message as it came").click();
        await expect(message.getByText(stray, { exact: false })).toBeVisible();
        await expect(rows.nth(1).getByRole("cell")).toHaveText([
          /\d{4}/,
          "SMTP listener",
          "Recorded",
          "Hard bounce",
          /^5\.1\.1 /,
        ]);
        await expect(rows.nth(1).getByRole("group")).toHaveCount(0);
        expect(await axeViolations(page)).toEqual([]);

        // The dashboard gives the broadcast its own rates: one of two bounced, past the 2% limit.
        await page.goto("/admin");
        const rates = page
          .getByRole("group", { name: "Broadcasts of the last 30 days" })
          .getByRole("row", { name: new RegExp(`^${subject}`) });
        await expect(rates.getByRole("cell")).toHaveText([
          /\d{4}/,
          "2",
          "1 (50.00%) (above the limit)",
          "0 (0.00%)",
        ]);
        expect(await axeViolations(page)).toEqual([]);
      } finally {
        await office.close();
      }
    } finally {
      await server.stop();
    }
  });
});
