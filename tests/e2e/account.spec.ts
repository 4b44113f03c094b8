/**
 * /account: a signed-in person's own account page (decision 029). Its email and verification,
 * changing the password, signing out everywhere, downloading what is held about them and deleting
 * the account, each through the page as a person uses it, against the Auth emulator.
 */
import { readFile } from "node:fs/promises";
import {
  MAIN_SERVER,
  signInBrowser,
  signInVerified,
  signOut,
  type Account,
} from "#tests/support/accounts.ts";
import { oobCodes, signInWithPassword } from "#tests/support/emulator.ts";
import { E2E_EMULATOR_HOST, E2E_PROJECT_ID } from "#tests/support/e2e-env.ts";
import { axeViolations, expect, HYDRATED_PAGE, test } from "#tests/support/fixtures.ts";
import { submitToWaitlist } from "#tests/support/waitlist-db.ts";
import { BAD_REQUEST_RESPONSE } from "#tests/support/console-messages.ts";

/** Whether the emulator still holds an account with this uid (Identity Toolkit's accounts:lookup). */
async function existsInFirebase(uid: string): Promise<boolean> {
  const answer = await fetch(
    `http://${E2E_EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/projects/${E2E_PROJECT_ID}/accounts:lookup`,
    {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer owner" },
      body: JSON.stringify({ localId: [uid] }),
    },
  );
  expect(answer.ok).toBe(true);
  const body = (await answer.json()) as { users?: unknown[] };
  return (body.users ?? []).length > 0;
}

/** The waitlist export's rows for this address, read with an administrator's session. */
async function waitlistRowsFor(baseURL: string, admin: Account, email: string): Promise<number> {
  const { cookie } = await signInVerified({ ...MAIN_SERVER, url: baseURL }, admin);
  try {
    const csv = await fetch(`${baseURL}/api/admin/waitlist.csv`, { headers: { cookie } });
    expect(csv.status).toBe(200);
    return (await csv.text()).split("\n").filter((line) => line.includes(email)).length;
  } finally {
    await signOut(baseURL, cookie);
  }
}

/** The number of the waitlist entry under `email`, as the admin list shows it. */
async function entryIdFor(baseURL: string, admin: Account, email: string): Promise<string> {
  const { cookie } = await signInVerified({ ...MAIN_SERVER, url: baseURL }, admin);
  try {
    const list = await fetch(`${baseURL}/admin/waitlist?q=${encodeURIComponent(email)}`, {
      headers: { cookie },
    });
    const id = /value="remove:(\d+)"/.exec(await list.text())?.[1];
    expect(id).toBeDefined();
    return id!;
  } finally {
    await signOut(baseURL, cookie);
  }
}

/** The text of the Activity page's row about entry `entryId`, read as the administrator. */
async function activityRowFor(baseURL: string, admin: Account, entryId: string): Promise<string> {
  const { cookie } = await signInVerified({ ...MAIN_SERVER, url: baseURL }, admin);
  try {
    const page = await fetch(`${baseURL}/admin/activity`, { headers: { cookie } });
    expect(page.status).toBe(200);
    const rows = (await page.text()).split("<tr").slice(1);
    const row = rows.find((r) => r.includes(`>#${entryId}<`) && r.includes("Account deleted"));
    expect(row, `no Activity row for #${entryId}`).toBeDefined();
    return row!.replace(/<[^>]+>/g, " ");
  } finally {
    await signOut(baseURL, cookie);
  }
}

/** A waitlist entry under the account's email. */
async function joinWaitlist(baseURL: string, account: Account) {
  const answer = await submitToWaitlist(baseURL, {
    name: "Account Holder",
    email: account.email,
    company: "Ledger & Co",
    message: "Month-end close",
  });
  expect(answer.status).toBe(202);
}

test("a signed-out visitor is sent to the sign-in page", async ({ page }) => {
  await page.goto("/account");
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("heading", { name: "Sign In", level: 1 })).toBeVisible();
});

test("/account is private, no-store, not in the sitemap, and linked from the header", async ({
  page,
  request,
  signedInUser,
}) => {
  const sitemap = await (await request.get("/sitemap.xml")).text();
  expect(sitemap).not.toContain("/account");

  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await page.locator(HYDRATED_PAGE).waitFor({ state: "attached" });
  await page
    .getByRole("navigation", { name: "Account" })
    .getByRole("link", { name: "Account" })
    .click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole("heading", { name: "Account", level: 1 })).toBeVisible();
  await expect(page.getByText(signedInUser.email)).toBeVisible();

  const direct = await page.request.get("/account");
  expect(direct.status()).toBe(200);
  expect(direct.headers()["cache-control"]).toBe("private, no-store");
  expect(await page.title()).toBe("Account | Tieout");
});

test("no axe violations at 1280 and 375 px", async ({ page, signedInUser }) => {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/account");
    await expect(page.getByText(signedInUser.email)).toBeVisible();
    await page.locator(HYDRATED_PAGE).waitFor({ state: "attached" });
    expect(await axeViolations(page), `at ${width} px`).toEqual([]);
  }
});

test("download my data: a JSON attachment with the account, its sessions, its waitlist entry and its subscription", async ({
  page,
  baseURL,
  signedInUser,
}) => {
  await joinWaitlist(baseURL!, signedInUser);
  const subscribed = await fetch(`${baseURL}/subprocessors`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: signedInUser.email }),
  });
  expect(subscribed.status).toBe(202);
  await page.goto("/account");
  await page.locator(HYDRATED_PAGE).waitFor({ state: "attached" });
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download my data" }).press("Enter");
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^tieout-my-data-\d{4}-\d{2}-\d{2}\.json$/);
  const held = JSON.parse(await readFile(await download.path(), "utf8")) as {
    account: { email: string; emailVerified: boolean; createdAt: string };
    sessions: Record<string, unknown>[];
    waitlistEntry: Record<string, unknown> | null;
    subprocessorSubscription: Record<string, unknown> | null;
    privacyRequests: unknown[];
    auditEntries: unknown[];
  };
  expect(held.account).toMatchObject({ email: signedInUser.email, emailVerified: true });
  expect(Date.parse(held.account.createdAt)).not.toBeNaN();
  expect(held.sessions.length).toBeGreaterThan(0);
  for (const session of held.sessions) {
    expect(Object.keys(session).sort()).toEqual(
      ["createdAt", "endedAt", "expiresAt", "lastSeenAt", "userAgent"].sort(),
    );
  }
  expect(held.waitlistEntry).toMatchObject({
    email: signedInUser.email,
    name: "Account Holder",
    company: "Ledger & Co",
    message: "Month-end close",
    state: "waiting",
  });
  expect(held.subprocessorSubscription).toMatchObject({
    email: signedInUser.email,
    state: "waiting",
  });
  expect(held.privacyRequests).toEqual([]);
  expect(held.auditEntries).toEqual([]);
  expect(JSON.stringify(held)).not.toContain(signedInUser.cookie.split("=")[1]!.split(".")[0]!);

  const answer = await page.request.post("/account/data", {
    form: {},
    headers: { Origin: baseURL! },
  });
  expect(answer.headers()["content-disposition"]).toMatch(/^attachment; filename=/);
  expect(answer.headers()["cache-control"]).toBe("private, no-store");

  // Opened as an address (a reload of it, say): the page with the button, not an error.
  await page.goto("/account/data");
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole("button", { name: "Download my data" })).toBeVisible();
});

test.describe("refused passwords", () => {
  // The Auth emulator answers a wrong password with 400, which Chromium reports.
  test.use({ expectedConsoleErrors: [BAD_REQUEST_RESPONSE] });

  test("change password, then sign in with the new one", async ({ page, signedInUser }) => {
    await page.goto("/account");
    await page.locator(HYDRATED_PAGE).waitFor({ state: "attached" });
    const form = page.getByRole("region", { name: "Change password" });

    // The spec's rules first: the confirmation must match.
    await form.getByLabel("Current password", { exact: true }).fill(signedInUser.password);
    await form.getByLabel("New password", { exact: true }).fill("a-new-password-2");
    await form.getByLabel("Confirm new password").fill("something-else-2");
    await form.getByRole("button", { name: "Change password" }).click();
    await expect(form.getByText("Please make sure both passwords are the same.")).toBeVisible();

    // A wrong current password is refused with a clear sentence.
    await form.getByLabel("Current password", { exact: true }).fill("not-the-password");
    await form.getByLabel("Confirm new password").fill("a-new-password-2");
    await form.getByRole("button", { name: "Change password" }).click();
    await expect(form.getByRole("alert")).toHaveText(
      "The current password is not right. Please try again.",
    );

    await form.getByLabel("Current password", { exact: true }).fill(signedInUser.password);
    await form.getByRole("button", { name: "Change password" }).click();
    await expect(
      page.getByText("Use your new password from now on.", { exact: true }),
    ).toBeVisible();

    // This browser stays signed in; the old password no longer works, the new one does.
    await page.reload();
    await expect(page.getByRole("heading", { name: "Account", level: 1 })).toBeVisible();
    await expect(signInWithPassword(signedInUser.email, signedInUser.password)).rejects.toThrow();
    await signInWithPassword(signedInUser.email, "a-new-password-2");
  });
});

test("send verification mail again", async ({ page, signedInUser }) => {
  // An account whose email is not verified yet: the emulator holds the mail's code.
  await fetch(
    `http://${E2E_EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/projects/${E2E_PROJECT_ID}/accounts:update`,
    {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer owner" },
      body: JSON.stringify({ localId: signedInUser.uid, emailVerified: false }),
    },
  );
  await page.goto("/account");
  await page.locator(HYDRATED_PAGE).waitFor({ state: "attached" });
  await expect(page.getByText("Not yet")).toBeVisible();
  await page.getByRole("button", { name: "Send verification mail again" }).click();
  await expect(
    page.getByText(`Open the link we sent to ${signedInUser.email}.`, { exact: true }),
  ).toBeVisible();
  const codes = await oobCodes(signedInUser.email);
  expect(codes.some((c) => c.requestType === "VERIFY_EMAIL")).toBe(true);
});

test.describe("sign out everywhere", () => {
  // The revoked refresh token: when this browser's Firebase SDK next refreshes it, the Auth
  // emulator answers 400, which Chromium reports. When that happens depends on timing.
  test.use({ expectedConsoleErrors: [BAD_REQUEST_RESPONSE] });

  test("sign out everywhere ends the session of another browser", async ({
    page,
    browser,
    baseURL,
    signedInUser,
  }) => {
    const other = await browser.newContext();
    try {
      await signInBrowser(other, baseURL!, signedInUser);
      const otherPage = await other.newPage();
      await otherPage.goto("/account");
      await expect(otherPage.getByRole("heading", { name: "Account", level: 1 })).toBeVisible();

      await page.goto("/account");
      await page.locator(HYDRATED_PAGE).waitFor({ state: "attached" });
      await page.getByRole("button", { name: "Sign out everywhere" }).click();
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByRole("link", { name: "Sign In" })).toBeVisible();

      await otherPage.goto("/account");
      await expect(otherPage).toHaveURL(/\/login$/);
      // The old cookie opens nothing.
      const old = await fetch(`${baseURL}/account`, {
        headers: { cookie: signedInUser.cookie },
        redirect: "manual",
      });
      expect(old.status).toBe(302);
    } finally {
      await other.close();
    }
  });
});

test.describe("deletion", () => {
  // A wrong password first: the Auth emulator answers it with 400, which Chromium reports.
  test.use({ expectedConsoleErrors: [BAD_REQUEST_RESPONSE] });

  test("delete my account: gone from Firebase, every session ended, the waitlist entry erased", async ({
    page,
    baseURL,
    admin,
    signedInUser,
  }) => {
    await joinWaitlist(baseURL!, signedInUser);
    expect(await waitlistRowsFor(baseURL!, admin, signedInUser.email)).toBeGreaterThan(0);
    const entryId = await entryIdFor(baseURL!, admin, signedInUser.email);

    await page.goto("/account");
    await page.locator(HYDRATED_PAGE).waitFor({ state: "attached" });
    const section = page.getByRole("region", { name: "Delete my account" });

    await section.getByRole("button", { name: "Delete my account" }).click();
    await expect(section.getByText("Please enter your password.")).toBeVisible();

    await section.getByLabel("Password", { exact: true }).fill("not-the-password");
    await section.getByRole("button", { name: "Delete my account" }).click();
    await expect(section.getByRole("alert")).toHaveText(
      "The password is not right. Your account was not deleted.",
    );
    expect(await existsInFirebase(signedInUser.uid)).toBe(true);

    await section.getByLabel("Password", { exact: true }).fill(signedInUser.password);
    await section.getByLabel("Password", { exact: true }).press("Enter");
    await expect(page).toHaveURL(/\/account\/deleted$/);
    await expect(page.getByRole("heading", { name: "Your account is deleted" })).toBeVisible();

    expect(await existsInFirebase(signedInUser.uid)).toBe(false);
    const old = await fetch(`${baseURL}/account`, {
      headers: { cookie: signedInUser.cookie },
      redirect: "manual",
    });
    expect(old.status).toBe(302);
    expect(old.headers.get("location")).toBe("/login");
    expect(await waitlistRowsFor(baseURL!, admin, signedInUser.email)).toBe(0);
    // The administrator's Activity page records it: by the member, the entry by number only.
    const row = await activityRowFor(baseURL!, admin, entryId);
    expect(row).toContain("Account deleted by its owner");
    expect(row).toContain("The member");
    expect(row).not.toContain(signedInUser.email);
  });
});

test("a deletion posted without proof of a fresh sign-in changes nothing", async ({
  page,
  baseURL,
  signedInUser,
}) => {
  // An old-enough token is hard to make; a token of another account stands for a bad proof.
  const answer = await page.request.post("/account", {
    form: { intent: "delete-account", idToken: "not-a-token-at-all-but-long-enough" },
    headers: { Origin: baseURL! },
    maxRedirects: 0,
  });
  expect(answer.status()).toBe(401);
  expect(await answer.text()).toContain("We could not confirm it was you");
  expect(await existsInFirebase(signedInUser.uid)).toBe(true);
});

test.describe("with JavaScript off", () => {
  // The page answers a form that needs JavaScript with 400, which Chromium reports.
  test.use({ javaScriptEnabled: false, expectedConsoleErrors: [BAD_REQUEST_RESPONSE] });

  test("the password forms say they need JavaScript; sign out everywhere works", async ({
    page,
    signedInUser,
  }) => {
    await page.goto("/account");
    await expect(page.getByText(signedInUser.email)).toBeVisible();
    const form = page.getByRole("region", { name: "Change password" });
    await expect(form.getByText(/This needs JavaScript/)).toBeVisible();
    await form.getByRole("button", { name: "Change password" }).click();
    await expect(
      page.getByRole("region", { name: "Change password" }).getByRole("alert"),
    ).toContainText("This needs JavaScript");
    await page.getByRole("button", { name: "Sign out everywhere" }).click();
    await expect(page).toHaveURL(/\/login$/);
    const old = await fetch(`${new URL(page.url()).origin}/account`, {
      headers: { cookie: signedInUser.cookie },
      redirect: "manual",
    });
    expect(old.status).toBe(302);
  });
});
