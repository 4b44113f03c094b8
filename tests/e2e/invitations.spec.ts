/**
 * From waitlist to beta user (decision 024), end to end: the production build in invite-only mode
 * (SIGNUP_MODE=invite) with a real SMTP server on loopback and the Auth emulator. A confirmed lead
 * is invited from the admin page, the invitation mail opens sign-up with the address fixed, and
 * the new account joins: `joined` in the list and in the CSV. Without an invitation the site says
 * plainly that access is by invitation; an account made directly at Firebase gets no session.
 */
import { readFile } from "node:fs/promises";
import type { Browser, Page } from "@playwright/test";
import { asAdmin, signOut } from "#tests/support/accounts.ts";
import { FORBIDDEN_RESPONSE } from "#tests/support/console-messages.ts";
import { E2E_ADMIN_EMAIL } from "#tests/support/e2e-env.ts";
import {
  accountExists,
  createUser,
  deleteUser,
  importAccount,
  oobCodes,
  signInWithPassword,
  uniqueEmail,
} from "#tests/support/emulator.ts";
import { axeViolations, expect, test, waitForHydration } from "#tests/support/fixtures.ts";
import { confirmedLead, linkIn, waitForMails } from "#tests/support/mailbox.ts";
import { startServer, type RunningServer } from "#tests/support/server.ts";
import type { TestSmtp } from "#tests/support/test-smtp.ts";

test.describe.configure({ mode: "serial", timeout: 90_000 });
test.use({
  // The session endpoint answers 403 to an account that was not invited: the browser logs it.
  expectedConsoleErrors: [FORBIDDEN_RESPONSE],
  ownServerEnv: { ADMIN_EMAILS: E2E_ADMIN_EMAIL, SIGNUP_MODE: "invite", INVITE_TTL_DAYS: "7" },
});

const PASSWORD = "invited-password-1";

/** Deletes the account an address holds, if it holds one (made by the test through the UI). */
async function deleteAccountOf(email: string) {
  if (!(await accountExists(email))) return;
  await deleteUser((await signInWithPassword(email, PASSWORD)).uid);
}

/**
 * The administrator invites the lead from the list, in a browser of their own; resolves with the
 * invitation's link.
 */
async function invite(
  server: RunningServer,
  smtp: TestSmtp,
  browser: Browser,
  email: string,
): Promise<string> {
  const context = await browser.newContext();
  try {
    await asAdmin(context, server, async () => {
      const page = await context.newPage();
      await page.goto(`${server.url}/admin/waitlist?q=${encodeURIComponent(email)}`);
      await page.getByRole("button", { name: `Invite ${email}` }).click();
      await expect(page.getByRole("status")).toHaveText("1 invited.");
    });
  } finally {
    await context.close();
  }
  const [, invitation] = await waitForMails(smtp, email, 2);
  expect(invitation?.subject).toBe("Your invitation to Tieout");
  expect(invitation?.text).toContain("The link works for 7 days");
  return linkIn(invitation!, "/signup?invite=");
}

/** The account signs in with its password alone, no invitation link, and gets a session. */
async function expectSessionFor(server: RunningServer, email: string) {
  const { idToken } = await signInWithPassword(email, PASSWORD);
  const answer = await fetch(`${server.url}/api/session`, {
    method: "POST",
    headers: { Authorization: `Bearer ${idToken}` },
  });
  expect(answer.status).toBe(200);
  await signOut(server.url, (answer.headers.get("set-cookie") ?? "").split(";")[0]!);
}

async function createAccount(page: Page) {
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create Account" }).click();
}

test("invite, mail, sign-up with the address fixed, and the entry is joined in the list and the CSV", async ({
  browser,
  page,
  ownServer: server,
  mailSink: smtp,
}) => {
  const lead = uniqueEmail("beta");
  await confirmedLead(server.url, smtp, { name: "Bea Beta", email: lead });
  const link = await invite(server, smtp, browser, lead);

  // A mail scanner opens the link first: that uses nothing up.
  expect((await fetch(link)).status).toBe(200);

  const visitor = await browser.newContext();
  const invitee = await visitor.newPage();
  try {
    const opened = await invitee.goto(link);
    expect(opened?.headers()["cache-control"]).toBe("private, no-store");
    await waitForHydration(invitee);
    await expect(invitee.getByRole("heading", { level: 1, name: "Create Account" })).toBeVisible();
    const email = invitee.getByLabel("Email");
    await expect(email).toHaveValue(lead);
    await expect(email).not.toBeEditable();
    await expect(invitee.getByText("Your invitation is for this address.")).toBeVisible();
    expect(await axeViolations(invitee)).toEqual([]);

    await createAccount(invitee);
    await expect(invitee.getByText("Account Created!", { exact: true })).toBeVisible();
    await expect(invitee).toHaveURL(`${server.url}/`);
    await expect(
      invitee.getByRole("banner").getByRole("button", { name: "Sign Out" }),
    ).toBeVisible();

    // Used: the link now says so, and points to the waitlist.
    await invitee.getByRole("banner").getByRole("button", { name: "Sign Out" }).click();
    await expect(invitee.getByRole("banner").getByRole("link", { name: "Sign In" })).toBeVisible();
    await invitee.goto(link);
    await expect(
      invitee.getByRole("heading", { level: 1, name: "This invitation no longer works" }),
    ).toBeVisible();
    await expect(invitee.getByRole("link", { name: "Join the waitlist" })).toHaveAttribute(
      "href",
      "/waitlist",
    );
  } finally {
    await visitor.close();
  }

  try {
    await asAdmin(page.context(), server, async () => {
      await page.goto(`${server.url}/admin/waitlist?state=joined`);
      const row = page.getByRole("row").filter({ hasText: lead });
      await expect(row.getByRole("cell").nth(3)).toHaveText("Joined");
      const csv = await (await page.request.get(`${server.url}/api/admin/waitlist.csv`)).text();
      const line = csv.split("\r\n").find((l) => l.includes(`"${lead}"`));
      expect(line).toContain('"joined"');
    });
  } finally {
    await deleteAccountOf(lead);
  }
});

test("the joined account signs in again without the link; a second invitation is refused", async ({
  browser,
  page,
  ownServer: server,
  mailSink: smtp,
}) => {
  const lead = uniqueEmail("returning");
  await confirmedLead(server.url, smtp, { name: "Rey Returning", email: lead });
  const link = await invite(server, smtp, browser, lead);
  await page.goto(link);
  await waitForHydration(page);
  await createAccount(page);
  await expect(page).toHaveURL(`${server.url}/`);
  await page.getByRole("banner").getByRole("button", { name: "Sign Out" }).click();
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign In" })).toBeVisible();

  try {
    // Its address is not verified: the account that joined is what lets it in.
    await expectSessionFor(server, lead);

    await asAdmin(page.context(), server, async () => {
      await page.goto(`${server.url}/admin/waitlist?q=${encodeURIComponent(lead)}`);
      await page.getByRole("checkbox", { name: `Select ${lead}` }).check();
      await page.getByRole("button", { name: "Invite selected" }).click();
      await expect(page.getByRole("status")).toHaveText("1 already joined.");
    });
  } finally {
    await deleteAccountOf(lead);
  }
});

test("a member who joined from the invitation, address never verified: the waitlist's remove link leaves the entry to the account, whose download has it and whose deletion erases it", async ({
  browser,
  page,
  ownServer: server,
  mailSink: smtp,
}) => {
  const lead = uniqueEmail("member");
  await confirmedLead(server.url, smtp, { name: "Mo Member", email: lead });
  const [confirmation] = await waitForMails(smtp, lead, 1);
  const remove = linkIn(confirmation!, "/waitlist/remove?token=");
  const link = await invite(server, smtp, browser, lead);
  await page.goto(link);
  await waitForHydration(page);
  await createAccount(page);
  await expect(page).toHaveURL(`${server.url}/`);

  // Opening the remove link says there is nothing to remove; a mail client's one-click
  // unsubscribe (multipart, as RFC 8058 prefers) changes nothing either.
  const visitor = await browser.newContext();
  try {
    const opened = await visitor.newPage();
    await opened.goto(remove);
    await expect(
      opened.getByRole("heading", { level: 1, name: "You have joined Tieout" }),
    ).toBeVisible();
    await expect(opened.getByRole("button")).toHaveCount(0);
  } finally {
    await visitor.close();
  }
  const body = new FormData();
  body.set("List-Unsubscribe", "One-Click");
  const unsubscribed = await fetch(remove, { method: "POST", body });
  expect(unsubscribed.status).toBe(200);
  expect(await unsubscribed.text()).toContain("You have joined Tieout");
  // The link did nothing, so it still says so, however often it is pressed.
  const again = await fetch(remove, { method: "POST", body });
  expect(again.status).toBe(200);
  expect(await again.text()).toContain("You have joined Tieout");
  await expectSessionFor(server, lead);

  await page.goto(`${server.url}/account`);
  await expect(page.getByText("Not yet")).toBeVisible();
  await waitForHydration(page);
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download my data" }).press("Enter");
  const held = JSON.parse(await readFile(await (await downloading).path(), "utf8")) as {
    waitlistEntry: { email: string; state: string } | null;
  };
  expect(held.waitlistEntry).toMatchObject({ email: lead, state: "joined" });

  const section = page.getByRole("region", { name: "Delete my account" });
  await section.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await section.getByRole("button", { name: "Delete my account" }).click();
  await expect(page).toHaveURL(/\/account\/deleted$/);
  expect(await accountExists(lead)).toBe(false);

  await asAdmin(page.context(), server, async () => {
    const csv = await (await page.request.get(`${server.url}/api/admin/waitlist.csv`)).text();
    expect(csv).not.toContain(lead);
  });
});

test("without an invitation the sign-up page says that access is by invitation and links to the waitlist", async ({
  page,
  ownServer: server,
}) => {
  const answer = await page.goto(`${server.url}/signup`);
  expect(answer?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "Create Account" })).toBeVisible();
  await expect(page.getByText("Access to Tieout is by invitation.")).toBeVisible();
  await expect(
    page.getByRole("main").getByRole("link", { name: "Join the waitlist" }),
  ).toHaveAttribute("href", "/waitlist");
  // The form is folded away under a question for administrators.
  await expect(page.getByLabel("Email")).toBeHidden();
  expect(await axeViolations(page)).toEqual([]);

  // A made-up invitation is one that no longer works.
  await page.goto(`${server.url}/signup?invite=${"A".repeat(43)}`);
  await expect(
    page.getByRole("heading", { level: 1, name: "This invitation no longer works" }),
  ).toBeVisible();
});

test("invite-only: an administrator creates the account on the sign-up page, verifies the address from the mail, and signs in as an administrator; anyone else is refused there", async ({
  page,
  mailSink: smtp,
}) => {
  const owner = uniqueEmail("owner");
  const site = await startServer({
    SMTP_URL: smtp.url,
    ADMIN_EMAILS: owner,
    SIGNUP_MODE: "invite",
  });
  const signUp = async (email: string) => {
    await page.goto(`${site.url}/signup`);
    await waitForHydration(page);
    await page.getByText("Administrator of this site? Create your account").click();
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirm Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create Account" }).click();
  };
  try {
    await signUp(owner);
    await expect(
      page.getByRole("alert").filter({ hasText: "Verify your address first." }),
    ).toBeVisible();
    expect((await page.context().cookies()).map((c) => c.name)).not.toContain("tieout_session");
    // The account is kept, and its verification mail went out.
    expect(await accountExists(owner)).toBe(true);
    const verification = (await oobCodes(owner)).findLast((c) => c.requestType === "VERIFY_EMAIL");
    expect(verification).toBeDefined();
    expect((await fetch(verification!.oobLink)).ok).toBe(true);

    await page.goto(`${site.url}/login`);
    await waitForHydration(page);
    await page.getByLabel("Email").fill(owner);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByRole("banner").getByRole("link", { name: "Admin" })).toBeVisible();
    await page.goto(`${site.url}/admin/waitlist`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect((await page.request.get(`${site.url}/admin/waitlist`)).status()).toBe(200);
    await page.getByRole("banner").getByRole("button", { name: "Sign Out" }).click();
    await expect(page.getByRole("banner").getByRole("link", { name: "Sign In" })).toBeVisible();

    // Someone else who opens the same form is told that access is by invitation.
    const visitor = uniqueEmail("not-owner");
    await signUp(visitor);
    await expect(
      page.getByRole("alert").filter({ hasText: "Access to Tieout is by invitation." }),
    ).toBeVisible();
    await expect.poll(() => accountExists(visitor)).toBe(false);
  } finally {
    await deleteAccountOf(owner);
    await site.stop();
  }
});

test("an account made directly at Firebase gets no session: the sign-in says access is by invitation, and the stray account is deleted", async ({
  page,
  ownServer: server,
}) => {
  const stray = uniqueEmail("stray");
  await createUser(stray, PASSWORD);
  await page.goto(`${server.url}/login`);
  await waitForHydration(page);
  await page.getByLabel("Email").fill(stray);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  const notice = page.getByRole("alert").filter({ hasText: "Access to Tieout is by invitation." });
  await expect(notice).toBeVisible();
  await expect(notice.getByRole("link", { name: "Join the waitlist" })).toBeVisible();
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign In" })).toBeVisible();
  await expect(page).toHaveURL(`${server.url}/login`);
  expect((await page.context().cookies()).map((c) => c.name)).not.toContain("tieout_session");
  await expect.poll(() => accountExists(stray)).toBe(false);

  // The token-sync endpoint itself: 403 for another stray account, and no cookie.
  const other = uniqueEmail("stray-api");
  const { idToken, uid } = await createUser(other, PASSWORD);
  const refused = await fetch(`${server.url}/api/session`, {
    method: "POST",
    headers: { Authorization: `Bearer ${idToken}` },
  });
  expect(refused.status).toBe(403);
  expect(await refused.json()).toEqual({ error: "not-invited" });
  expect(refused.headers.get("set-cookie")).toBeNull();
  expect(await accountExists(other)).toBe(false);
  await deleteUser(uid).catch(() => {});
});

test("an account from before invitations, never invited, is refused with the same notice and kept", async ({
  page,
  ownServer: server,
}) => {
  const older = uniqueEmail("older");
  const { uid } = await importAccount(older, PASSWORD, Date.now() - 90 * 24 * 3600 * 1000);
  try {
    await page.goto(`${server.url}/login`);
    await waitForHydration(page);
    await page.getByLabel("Email").fill(older);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(
      page.getByRole("alert").filter({ hasText: "Access to Tieout is by invitation." }),
    ).toBeVisible();
    expect(await accountExists(older)).toBe(true);
  } finally {
    await deleteUser(uid);
  }
});

test("an administrator gets a session without an invitation", async ({
  admin,
  ownServer: server,
}) => {
  const { idToken } = await signInWithPassword(admin.email, admin.password);
  const answer = await fetch(`${server.url}/api/session`, {
    method: "POST",
    headers: { Authorization: `Bearer ${idToken}` },
  });
  expect(answer.status).toBe(200);
  await signOut(server.url, (answer.headers.get("set-cookie") ?? "").split(";")[0]!);
});
