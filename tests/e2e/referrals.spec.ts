/**
 * Referrals as a signal (issue 37, decision 045), as people meet them: the thank-you view and the
 * confirmation page offer "Know another firm? Share this link"; a colleague who joins through it,
 * with JavaScript or without, is recorded as referred; the administrator sees it on the list, in
 * the export and on the dashboard. The production build on this spec's own server, its mail caught
 * by a real SMTP server.
 */
import type { Browser, Page } from "@playwright/test";
import { asAdmin } from "#tests/support/accounts.ts";
import { E2E_ADMIN_EMAIL } from "#tests/support/e2e-env.ts";
import { uniqueEmail } from "#tests/support/emulator.ts";
import { axeViolations, expect, test, waitForHydration } from "#tests/support/fixtures.ts";
import { linkIn, waitForMails } from "#tests/support/mailbox.ts";
import { submitToWaitlist } from "#tests/support/waitlist-db.ts";

test.describe.configure({ timeout: 120_000 });
test.use({ ownServerEnv: { ADMIN_EMAILS: E2E_ADMIN_EMAIL } });

const SHARE = "Know another firm? Share this link";
const LINK = /\/waitlist\?ref=[0-9a-f]{16}$/;

async function join(page: Page, name: string, email: string) {
  await page.getByLabel("Full Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Join Waitlist" }).click();
  await expect(page.getByRole("heading", { name: "You're on the list!" })).toBeVisible();
}

/** The link the page offers to share, as a person would copy it. */
async function sharedLink(page: Page): Promise<string> {
  const share = page.getByRole("region", { name: SHARE });
  await expect(share).toBeVisible();
  const link = await share.getByLabel("Your link").inputValue();
  expect(link).toMatch(LINK);
  return link;
}

/** Opens `link` in a browser of a colleague's own and joins the list through it. */
async function colleagueJoins(
  browser: Browser,
  link: string,
  who: { name: string; email: string; javaScript: boolean },
): Promise<string> {
  const context = await browser.newContext({ javaScriptEnabled: who.javaScript });
  try {
    const page = await context.newPage();
    await page.goto(link);
    if (who.javaScript) await waitForHydration(page);
    await join(page, who.name, who.email);
    // The colleague is offered a link of their own, never the one they came by.
    const theirs = await sharedLink(page);
    expect(theirs).not.toBe(link);
    return theirs;
  } finally {
    await context.close();
  }
}

test("a lead shares the link from the thank-you page; colleagues who join through it are recorded, and the admin sees it", async ({
  page,
  browser,
  ownServer: server,
  mailSink: smtp,
}) => {
  const lead = { name: "Rhea Sharer", email: uniqueEmail("sharer") };
  await page.goto(`${server.url}/waitlist`);
  await waitForHydration(page);
  await join(page, lead.name, lead.email);
  const link = await sharedLink(page);
  expect(link.startsWith(`${server.url}/waitlist?ref=`)).toBe(true);
  const mailto = await page
    .getByRole("link", { name: "Email the link to a colleague" })
    .getAttribute("href");
  expect(decodeURIComponent(mailto!)).toContain(link);
  expect(await axeViolations(page)).toEqual([]);

  // The same address again, by the API: the same link, as for anyone who types it (nothing tells a
  // new address from one already listed).
  const again = await submitToWaitlist(server.url, lead);
  expect(again.status).toBe(202);
  expect(await again.json()).toMatchObject({ ok: true, status: "accepted", shareUrl: link });

  const withScript = { name: "Cole League", email: uniqueEmail("colleague"), javaScript: true };
  const withoutScript = { name: "Nola Script", email: uniqueEmail("no-script"), javaScript: false };
  await colleagueJoins(browser, link, withScript);
  await colleagueJoins(browser, link, withoutScript);
  // A link whose code no entry has records nothing, and says nothing different.
  const stranger = { name: "Odd Code", email: uniqueEmail("odd-code"), javaScript: false };
  await colleagueJoins(browser, link.replace(/ref=.*/, "ref=ffffffffffffffff"), stranger);

  // Confirming the address shows the same link again.
  const [mail] = await waitForMails(smtp, lead.email, 1);
  await page.goto(linkIn(mail!, "/waitlist/confirm?token="));
  await page.getByRole("button", { name: "Confirm my address" }).click();
  await expect(page.getByRole("heading", { name: "Your address is confirmed" })).toBeVisible();
  expect(await sharedLink(page)).toBe(link);
  expect(await axeViolations(page)).toEqual([]);

  const context = await browser.newContext();
  try {
    await asAdmin(context, server, async () => {
      const admin = await context.newPage();
      await admin.goto(`${server.url}/admin/waitlist?q=${encodeURIComponent(lead.email)}`);
      await expect(
        admin.getByRole("row", { name: /Rhea Sharer/ }).getByRole("list", { name: "Referrals" }),
      ).toHaveText("Referred: 2 entries");
      for (const colleague of [withScript, withoutScript]) {
        await admin.goto(`${server.url}/admin/waitlist?q=${encodeURIComponent(colleague.email)}`);
        await expect(
          admin
            .getByRole("row", { name: new RegExp(colleague.name) })
            .getByRole("list", { name: "Referrals" }),
        ).toHaveText(`Referred by ${lead.email}`);
      }
      await admin.goto(`${server.url}/admin/waitlist?q=${encodeURIComponent(stranger.email)}`);
      await expect(admin.getByRole("row", { name: /Odd Code/ })).toBeVisible();
      await expect(admin.getByRole("list", { name: "Referrals" })).toHaveCount(0);

      await admin.goto(`${server.url}/admin`);
      const referrals = admin.getByRole("region", { name: "Referrals" });
      await expect(
        referrals.getByRole("list", { name: "Referrals in the period" }).getByRole("listitem"),
      ).toHaveText([
        /^2\s*entries through a shared link$/,
        /^0\s*of them confirmed$/,
        /^1\s*shared links that brought someone$/,
      ]);
      const row = referrals.getByRole("row", { name: new RegExp(lead.email) });
      await expect(row.getByRole("cell")).toHaveText(["2", "0"]);
      await row.getByRole("link").click();
      await expect(admin).toHaveURL(/\/admin\/waitlist\?q=/);
      await expect(admin.getByRole("row", { name: /Rhea Sharer/ })).toBeVisible();
      expect(await axeViolations(admin)).toEqual([]);
    });
  } finally {
    await context.close();
  }
});
