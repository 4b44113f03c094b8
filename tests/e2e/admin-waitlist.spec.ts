/**
 * The admin who can act (decision 024), end to end: the production build with SMTP_URL on a real
 * SMTP server on loopback. An administrator invites, resends, declines and removes from the list,
 * one row or the ticked ones; each press answers with what changed in a live region, and the mail
 * it causes arrives once. The Activity page names who did what. Anyone else is refused every
 * action, whatever they send.
 */
import { request as httpRequest } from "node:http";
import type { Page } from "@playwright/test";
import {
  asAdmin,
  createVerifiedAccount,
  deleteAccount,
  signIn,
  signOut,
  type Account,
} from "#tests/support/accounts.ts";
import { uniqueEmail } from "#tests/support/emulator.ts";
import { axeViolations, expect, test } from "#tests/support/fixtures.ts";
import { confirmedLead, linkIn, mailsTo, waitForMails } from "#tests/support/mailbox.ts";
import type { RunningServer } from "#tests/support/server.ts";
import type { TestSmtp } from "#tests/support/test-smtp.ts";
import { submitToWaitlist } from "#tests/support/waitlist-db.ts";
import { E2E_ADMIN_EMAIL } from "#tests/support/e2e-env.ts";

test.describe.configure({ mode: "serial", timeout: 90_000 });
test.use({ ownServerEnv: { ADMIN_EMAILS: E2E_ADMIN_EMAIL } });

/** The list, searched for one address: its row, as the administrator sees it. */
async function rowOf(server: RunningServer, page: Page, email: string) {
  await page.goto(`${server.url}/admin/waitlist?q=${encodeURIComponent(email)}`);
  return page.getByRole("row").filter({ hasText: email });
}

/** A lead with a fresh address who confirmed it. */
async function newLead(server: RunningServer, smtp: TestSmtp, label: string) {
  const email = uniqueEmail(label);
  await confirmedLead(server.url, smtp, { name: `${label} lead`, email });
  return email;
}

/** The State column among a row's cells (the select box, when, email, then the state). */
const STATE = 3;

/** Long enough for the worker to have sent a mail, had the press caused one. */
const settle = () => new Promise((r) => setTimeout(r, 1500));

test("Invite writes the state and sends one invitation; pressing again sends nothing and says so", async ({
  context,
  page,
  ownServer: server,
  mailSink: smtp,
}) => {
  const lead = await newLead(server, smtp, "invitee");
  await asAdmin(context, server, async () => {
    const row = await rowOf(server, page, lead);
    await expect(row.getByRole("cell").nth(STATE)).toHaveText("Confirmed");
    await row.getByRole("button", { name: `Invite ${lead}` }).click();
    await expect(page.getByRole("status")).toHaveText("1 invited.");
    await expect(row.getByRole("cell").nth(STATE)).toHaveText("Invited");

    const [, invitation] = await waitForMails(smtp, lead, 2);
    expect(invitation?.subject).toBe("Your invitation to Tieout");
    expect(linkIn(invitation!, "/signup?invite=")).toMatch(/\/signup\?invite=[\w-]{43}$/);

    // The row now offers Resend, not Invite; the bulk button invites it a second time in vain.
    await expect(row.getByRole("button", { name: `Invite ${lead}` })).toHaveCount(0);
    await row.getByRole("checkbox", { name: `Select ${lead}` }).check();
    await page.getByRole("button", { name: "Invite selected" }).click();
    await expect(page.getByRole("status")).toHaveText("1 already invited.");
    // Resend waits an hour after the invitation.
    await row.getByRole("button", { name: `Resend ${lead}` }).click();
    await expect(page.getByRole("status")).toHaveText(
      "1 invited less than an hour ago (not sent again: Resend works an hour after the last invitation).",
    );
    await settle();
    expect(mailsTo(smtp, lead).map((m) => m.subject)).toEqual([
      "Confirm your place on the Tieout waitlist",
      "Your invitation to Tieout",
    ]);
  });
});

test("Invite selected acts on the ticked rows and says what happened to each", async ({
  context,
  page,
  ownServer: server,
  mailSink: smtp,
}) => {
  const company = `Bulk ${Date.now()} LLP`;
  const leads = [uniqueEmail("bulk"), uniqueEmail("bulk"), uniqueEmail("bulk")];
  for (const email of leads)
    await confirmedLead(server.url, smtp, { name: "Bulk", email, company });
  const unconfirmed = uniqueEmail("bulk-unconfirmed");
  await submitToWaitlist(server.url, { name: "Bulk", email: unconfirmed, company });
  await asAdmin(context, server, async () => {
    await page.goto(`${server.url}/admin/waitlist`);
    await page.getByLabel("Search by name, email or company").fill(company);
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByRole("row")).toHaveCount(5);
    await page
      .getByRole("row")
      .filter({ hasText: leads[0] })
      .getByRole("button", { name: "Invite" })
      .click();
    await expect(page.getByRole("status")).toHaveText("1 invited.");
    for (const email of [...leads, unconfirmed])
      await page.getByRole("checkbox", { name: `Select ${email}` }).check();
    await page.getByRole("button", { name: "Invite selected" }).click();
    await expect(page.getByRole("status")).toHaveText(
      "2 invited, 1 already invited, 1 not confirmed by their owner yet (no mail goes to an unconfirmed address).",
    );
    // The ticks are cleared once the answer is in.
    await expect(page.getByRole("checkbox", { checked: true })).toHaveCount(0);
    for (const email of leads) await waitForMails(smtp, email, 2);
    await settle();
    expect(mailsTo(smtp, unconfirmed)).toHaveLength(1);
  });
});

test("Decline sends nothing unless Tell them is ticked", async ({
  context,
  page,
  ownServer: server,
  mailSink: smtp,
}) => {
  const quiet = await newLead(server, smtp, "declined-quietly");
  const told = await newLead(server, smtp, "declined-told");
  await asAdmin(context, server, async () => {
    let row = await rowOf(server, page, quiet);
    await row.getByRole("button", { name: `Decline ${quiet}` }).click();
    await expect(page.getByRole("status")).toHaveText("1 declined.");
    await expect(row.getByRole("cell").nth(STATE)).toHaveText("Declined");

    row = await rowOf(server, page, told);
    await row.getByRole("checkbox", { name: `Tell them by mail: ${told}` }).check();
    await row.getByRole("button", { name: `Decline ${told}` }).click();
    await expect(page.getByRole("status")).toHaveText("1 declined and told by mail.");
    const [, mail] = await waitForMails(smtp, told, 2);
    expect(mail?.subject).toBe("About your place on the Tieout waitlist");
    await settle();
    expect(mailsTo(smtp, quiet)).toHaveLength(1);
  });
});

test("Remove erases the entry; the Activity page names the administrator, the action, the entry and the export", async ({
  context,
  page,
  ownServer: server,
  mailSink: smtp,
}) => {
  const lead = await newLead(server, smtp, "removed");
  await asAdmin(context, server, async () => {
    const row = await rowOf(server, page, lead);
    const id = await row.getByRole("checkbox", { name: `Select ${lead}` }).inputValue();
    await row.getByRole("button", { name: `Remove ${lead}` }).click();
    await expect(page.getByRole("status")).toHaveText("1 removed.");
    await expect(page.getByRole("row").filter({ hasText: lead })).toHaveCount(0);
    // After the press its button is gone with its row: focus is on the answer, not lost.
    await expect(page.getByRole("status")).toBeFocused();

    const csv = await page.request.get(`${server.url}/api/admin/waitlist.csv`);
    expect(csv.status()).toBe(200);
    expect(await csv.text()).not.toContain(lead);
    // A HEAD sends no row, so it is no export: nothing for the log below. It is not served.
    const head = await page.request.head(`${server.url}/api/admin/waitlist.csv`);
    expect(head.status()).toBe(405);
    expect(head.headers()["allow"]).toBe("GET");

    await page.getByRole("link", { name: "Activity" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Activity" })).toBeVisible();
    const rows = page.getByRole("region", { name: "Administrator activity" }).getByRole("row");
    await expect(rows.nth(1).getByRole("cell")).toHaveText([
      /\d/,
      E2E_ADMIN_EMAIL,
      "Export (CSV)",
      "All entries",
      /^\d+ rows?$/,
      /\S/,
    ]);
    await expect(rows.nth(2).getByRole("cell")).toHaveText([
      /\d/,
      E2E_ADMIN_EMAIL,
      "Remove",
      `#${id}`,
      "removed",
      /\S/,
    ]);
    // The lead's address is nowhere in the log.
    await expect(page.getByRole("main")).not.toContainText(lead);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("link", { name: "Entries" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Waitlist" })).toBeVisible();
  });
});

test("by keyboard and with a screen reader: labelled checkboxes, named buttons, a live region, no axe violations", async ({
  context,
  page,
  ownServer: server,
  mailSink: smtp,
}) => {
  const lead = await newLead(server, smtp, "keyboard");
  await asAdmin(context, server, async () => {
    const row = await rowOf(server, page, lead);
    await expect(page.getByRole("table", { name: /^Waitlist entries/ })).toHaveAccessibleName(
      `Waitlist entries, newest first, matching “${lead}”`,
    );
    await expect(row.getByRole("rowheader")).toHaveText("keyboard lead");
    expect(await axeViolations(page)).toEqual([]);
    const box = row.getByRole("checkbox", { name: `Select ${lead}` });
    await box.focus();
    await page.keyboard.press("Space");
    await expect(box).toBeChecked();
    await row.getByRole("button", { name: `Invite ${lead}` }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("status")).toHaveText("1 invited.");
  });
});

test("on a phone each entry reads as a block, its buttons under its values; on a wide screen every column is in view; between, the actions stay at the right edge with an edge of their own", async ({
  context,
  page,
  ownServer: server,
  mailSink: smtp,
}) => {
  const lead = await newLead(server, smtp, "narrow");
  await asAdmin(context, server, async () => {
    await page.setViewportSize({ width: 375, height: 812 });
    const row = await rowOf(server, page, lead);
    const region = page.getByRole("region", { name: "Waitlist entries" });
    const scrolls = () => region.evaluate((r) => r.scrollWidth > r.clientWidth);
    expect(await scrolls(), "the list scrolls sideways on a phone").toBe(false);
    expect(await axeViolations(page)).toEqual([]);
    const name = (await row.getByRole("rowheader").boundingBox())!;
    const email = row.getByRole("cell").filter({ hasText: lead });
    const emailBox = (await email.boundingBox())!;
    expect(emailBox.y, "the name heads the entry").toBeGreaterThan(name.y);
    expect(await email.evaluate((td) => getComputedStyle(td, "::before").content)).toMatch(
      /^"Email"/,
    );
    for (const action of ["Invite", "Decline", "Remove"]) {
      const button = (await row.getByRole("button", { name: `${action} ${lead}` }).boundingBox())!;
      expect(button.y, `${action} is under the values`).toBeGreaterThan(emailBox.y);
      expect(button.x + button.width, `${action} is on screen`).toBeLessThanOrEqual(375);
    }

    await page.setViewportSize({ width: 1440, height: 900 });
    expect(await scrolls(), "the list scrolls sideways at 1440 px").toBe(false);
    const headers = page.getByRole("columnheader");
    const forwarded = (await headers.filter({ hasText: "Forwarded" }).boundingBox())!;
    const actions = (await headers.filter({ hasText: "Actions" }).boundingBox())!;
    expect(forwarded.x + forwarded.width, "Forwarded is not under Actions").toBeLessThanOrEqual(
      actions.x + 1,
    );

    // A width where the columns do not fit: the table scrolls under the actions, which stay put
    // and draw their own edge (a border would stay behind with the collapsed grid).
    await page.setViewportSize({ width: 820, height: 900 });
    expect(await scrolls()).toBe(true);
    await region.evaluate((r) => r.scrollTo({ left: r.scrollWidth }));
    const shown = (await region.boundingBox())!;
    const decline = (await row.getByRole("button", { name: `Decline ${lead}` }).boundingBox())!;
    expect(decline.x + decline.width).toBeLessThanOrEqual(shown.x + shown.width);
    await region.evaluate((r) => r.scrollTo({ left: 0 }));
    const back = (await row.getByRole("button", { name: `Decline ${lead}` }).boundingBox())!;
    expect(Math.abs(back.x - decline.x), "the actions stayed where they were").toBeLessThan(1);
    const actionsCell = row.getByRole("cell").last();
    expect(await actionsCell.evaluate((td) => getComputedStyle(td).boxShadow)).toContain("inset");
  });
});

test("without JavaScript every action is a plain form post", async ({
  browser,
  ownServer: server,
  mailSink: smtp,
}) => {
  const lead = await newLead(server, smtp, "no-script");
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  try {
    await asAdmin(context, server, async () => {
      const row = await rowOf(server, page, lead);
      const answer = page.waitForResponse((r) => r.request().method() === "POST");
      await row.getByRole("button", { name: `Invite ${lead}` }).click();
      expect((await answer).status()).toBe(200);
      await expect(page.getByRole("status")).toHaveText("1 invited.");
      await expect(
        page.getByRole("row").filter({ hasText: lead }).getByRole("cell").nth(STATE),
      ).toHaveText("Invited");
      // The list kept its search across the post.
      await expect(page.getByLabel("Search by name, email or company")).toHaveValue(lead);
    });
  } finally {
    await context.close();
  }
});

/** A POST whose target is sent exactly as written (fetch would resolve `..` first): its status. */
function rawPost(base: string, target: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(base);
    const request = httpRequest(
      { hostname, port, path: target, method: "POST", headers },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on("error", reject);
    request.end(JSON.stringify({ act: "remove:1" }));
  });
}

test("anyone but an administrator is refused every action, whatever they send, and nothing changes", async ({
  context,
  page,
  ownServer: server,
  mailSink: smtp,
}) => {
  const lead = await newLead(server, smtp, "guarded");
  let id = "";
  await asAdmin(context, server, async () => {
    const row = await rowOf(server, page, lead);
    id = await row.getByRole("checkbox", { name: `Select ${lead}` }).inputValue();
  });
  const member: Account = await createVerifiedAccount("not-admin");
  try {
    const { cookie } = await signIn(server.url, member);
    const form = "application/x-www-form-urlencoded";
    const bodies: { type: string; body: string }[] = [
      ...["invite", "resend", "decline", "remove"].map((action) => ({
        type: form,
        body: `act=${action}%3A${id}&tell=${id}`,
      })),
      { type: form, body: `act=invite-selected&id=${id}` },
      { type: form, body: "act=drop-table" },
      { type: form, body: "" },
      { type: "application/json", body: JSON.stringify({ act: `remove:${id}` }) },
      { type: "text/plain", body: `act=remove:${id}` },
      { type: "multipart/form-data; boundary=x", body: "--x--" },
      { type: form, body: `act=remove%3A${id}&pad=${"x".repeat(40_000)}` },
    ];
    for (const path of ["/admin/waitlist", "/admin/waitlist.data", "/ADMIN//waitlist"]) {
      for (const { type, body } of bodies) {
        const asked = await fetch(`${server.url}${path}`, {
          method: "POST",
          headers: { "Content-Type": type, Cookie: cookie },
          body,
        });
        expect(asked.status, `${path} ${type} ${body.slice(0, 30)}`).toBe(403);
        const anonymous = await fetch(`${server.url}${path}`, {
          method: "POST",
          headers: { "Content-Type": type },
          body,
        });
        expect(anonymous.status, `signed out: ${path} ${body.slice(0, 30)}`).toBe(401);
      }
    }
    // Spellings a browser would tidy before sending, sent as written: the router reads each as
    // the admin's page, and so does the guard that answers before the body is read.
    for (const path of ["/x/%2e%2e/admin/waitlist", "/x/../admin/privacy", "/admin\\waitlist"]) {
      for (const [headers, status] of [
        [{ Cookie: cookie }, 403],
        [{}, 401],
      ] as const) {
        const asked = await rawPost(server.url, path, {
          ...headers,
          "Content-Type": "application/json",
        });
        expect(asked, `${path} ${status}`).toBe(status);
      }
    }
    for (const path of ["/admin/waitlist", "/admin/activity"]) {
      const seen = await fetch(`${server.url}${path}`, { headers: { Cookie: cookie } });
      expect(seen.status).toBe(403);
      expect(await seen.text()).not.toContain(lead);
    }
    await signOut(server.url, cookie);
  } finally {
    await deleteAccount(member);
  }
  await asAdmin(context, server, async () => {
    const row = await rowOf(server, page, lead);
    await expect(row.getByRole("cell").nth(STATE)).toHaveText("Confirmed");
  });
  expect(mailsTo(smtp, lead)).toHaveLength(1);
});
