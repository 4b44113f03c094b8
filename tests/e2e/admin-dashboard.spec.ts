/**
 * The admin dashboard end to end (decision 028): a visitor from a newsletter joins, another
 * address joins directly and confirms by the link in its mail, and the administrator sees the day's
 * entries, the sources, the funnel and the mail that went out, without JavaScript too.
 */
import { signInBrowserVerified, signOut } from "#tests/support/accounts.ts";
import { adminMailsSettled } from "#tests/support/admin-passkey.ts";
import { E2E_ADMIN_EMAIL } from "#tests/support/e2e-env.ts";
import { uniqueEmail } from "#tests/support/emulator.ts";
import { axeViolations, expect, test, waitForHydration } from "#tests/support/fixtures.ts";
import { submitToWaitlist } from "#tests/support/waitlist-db.ts";

test.use({ ownServerEnv: { ADMIN_EMAILS: E2E_ADMIN_EMAIL } });

/** A person's browser: a headless one names itself so, and is not counted as a reader. */
const PERSON =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/150.0.0.0 Safari/537.36";

test("the dashboard shows the day's entries, where they came from, the funnel and the mail", async ({
  admin,
  browser,
  ownServer: server,
  mailSink: smtp,
}) => {
  // The administrator signs in first: their passkey's code and notice count among the mail.
  const adminContext = await browser.newContext();
  const { cookie } = await signInBrowserVerified(adminContext, server, admin);
  const adminMails = await adminMailsSettled(smtp, admin.email);

  // A reader from the newsletter lands on the home page and joins from there.
  const visitor = await browser.newContext({ userAgent: PERSON });
  const page = await visitor.newPage();
  await page.goto(`${server.url}/?utm_source=Newsletter`);
  await waitForHydration(page);
  await page.getByRole("link", { name: "See it in action" }).click();
  await waitForHydration(page);
  const lead = uniqueEmail("dash-lead");
  await page.getByLabel("Full Name").fill("Nell Newsletter");
  await page.getByLabel("Email").fill(lead);
  await page.getByRole("button", { name: "Join Waitlist" }).click();
  await expect(page.getByRole("heading", { name: "You're on the list!" })).toBeVisible();
  await visitor.close();

  // Another joins through the API and confirms by the link in the mail.
  const direct = uniqueEmail("dash-direct");
  expect((await submitToWaitlist(server.url, { name: "Dan Direct", email: direct })).status).toBe(
    202,
  );
  await expect.poll(() => smtp.received.length, { timeout: 20_000 }).toBe(adminMails + 2);
  const mail = smtp.received.find((m) => m.to.includes(direct));
  const link = /https?:\/\/\S+\/waitlist\/confirm\?token=[\w-]+/.exec(mail?.parsed.text ?? "");
  const confirmed = await fetch(link![0], {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token: new URL(link![0]).searchParams.get("token")! }),
  });
  expect(confirmed.status).toBe(200);

  // Signed out, the dashboard sends the visitor to sign in; it shows nothing.
  const anonymous = await fetch(`${server.url}/admin`, { redirect: "manual" });
  expect(anonymous.status).toBe(302);
  expect(anonymous.headers.get("location")).toBe("/login");

  try {
    const view = await adminContext.newPage();
    // Page views reach the database within a few seconds of being counted.
    await expect
      .poll(
        async () => {
          await view.goto(`${server.url}/admin`);
          return view
            .getByRole("region", { name: "Sources" })
            .getByRole("row", { name: /^newsletter/ })
            .getByRole("cell")
            .allTextContents();
        },
        { timeout: 20_000 },
      )
      .toEqual(["1", "1", "0", "0"]);

    await expect(view.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
    await expect(
      view.getByRole("img", { name: "Waitlist entries per day, last 30 days" }),
    ).toBeVisible();
    const days = view.getByRole("group", { name: "Entries per day" }).getByRole("row");
    await expect(days).toHaveCount(31);
    await expect(days.nth(1).getByRole("cell")).toHaveText("2");

    await expect(
      view
        .getByRole("region", { name: "Sources" })
        .getByRole("row", { name: /^\(direct\)/ })
        .getByRole("cell"),
    ).toHaveText(["0", "1", "1", "0"]);

    const funnel = view.getByRole("region", { name: "Funnel" });
    await expect(funnel.getByRole("row", { name: /^Page loads/ }).getByRole("cell")).toHaveText([
      "1",
      "",
    ]);
    await expect(
      funnel.getByRole("row", { name: /^Waitlist entries/ }).getByRole("cell"),
    ).toHaveText(["2", "more than the step before"]);
    await expect(funnel.getByRole("row", { name: /^Confirmed/ }).getByRole("cell")).toHaveText([
      "1",
      "50%",
    ]);
    await expect(funnel.getByRole("row", { name: /^Joined/ }).getByRole("cell")).toHaveText([
      "0",
      "–",
    ]);

    await expect(
      view.getByRole("group", { name: "Broadcasts of the last 30 days" }).getByRole("cell"),
    ).toHaveText(["No broadcast began in the last 30 days."]);
    await expect(view.getByRole("list", { name: "Outbox" }).getByRole("listitem")).toHaveText([
      "0 waiting now",
      `${adminMails + 2} sent in the last day`,
      "0 failed in the last day",
    ]);
    expect(await axeViolations(view)).toEqual([]);

    // The period is a plain form: it works the same without JavaScript.
    await view.getByLabel("Period for the funnel, the sources and the referrals").selectOption("7");
    await view.getByRole("button", { name: "Show" }).click();
    await expect(view).toHaveURL(/\/admin\?period=7$/);
    await expect(
      view.getByLabel("Period for the funnel, the sources and the referrals"),
    ).toHaveValue("7");

    await view.getByRole("link", { name: "Entries" }).click();
    await expect(view.getByRole("heading", { level: 1, name: "Waitlist" })).toBeVisible();
  } finally {
    await signOut(server.url, cookie);
    await adminContext.close();
  }
});
