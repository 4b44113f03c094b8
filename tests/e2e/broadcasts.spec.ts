/**
 * Broadcasts and the suppression list from the admin (decision 041), on the suite's main server
 * with its local inbox: a draft composed and counted, its test mail, its preview, a body with HTML
 * refused; Send now after "Confirm it's you" and the progress page; an address suppressed, found
 * and taken off the list again after the passkey.
 *
 * The main server holds every spec's entries, so each test makes confirmed entries of its own,
 * through the form and the link in their mail, under a company named by a tag of its own, and
 * aims its broadcast at that tag (the audience's search): what it counts and sends is its own.
 *
 * A step-up is asked of the browser when the page's step-up time has passed by the browser's
 * clock. The administrators who step up are verified with their passkey just before, so the tests
 * move the page's clock 16 minutes on, and the passkey that verified them is put into Chromium's
 * virtual authenticator (CDP WebAuthn), which answers the ceremony as a laptop's would.
 */
import { createPrivateKey } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { BrowserContext, Page } from "@playwright/test";
import {
  MAIN_SERVER,
  signInBrowserVerified,
  signInVerified,
  signOut,
} from "#tests/support/accounts.ts";
import { useCookie } from "#tests/support/admin-passkey.ts";
import { UNPROCESSABLE_RESPONSE } from "#tests/support/console-messages.ts";
import { BASE_URL, E2E_DATA_DIR, E2E_PASSKEY_ADMINS } from "#tests/support/e2e-env.ts";
import { ensureUser, uniqueEmail } from "#tests/support/emulator.ts";
import { inboxMail, inboxSubjects } from "#tests/support/local-inbox.ts";
import { axeViolations, expect, HYDRATED_PAGE, test } from "#tests/support/fixtures.ts";
import type { SoftAuthenticatorJSON } from "#tests/support/soft-authenticator.ts";
import { submitToWaitlist } from "#tests/support/waitlist-db.ts";

test.describe.configure({ timeout: 120_000 });

/** Administrators who step up, one per test; the passkey spec takes the first of the list. */
const SENDER = E2E_PASSKEY_ADMINS[7]!;
const KEEPER = E2E_PASSKEY_ADMINS[6]!;
const PASSWORD = "passkey-admin-password-1";

const FORM = { "Content-Type": "application/x-www-form-urlencoded" };

/** A tag of this test's own, for addresses and the company its entries share. */
const newTag = () => `bc${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

/** A lead who joined through the API and pressed the button behind their confirmation mail. */
async function confirmedEntry(name: string, email: string, company: string) {
  expect((await submitToWaitlist(BASE_URL, { name, email, company })).status).toBe(202);
  const text = (await inboxMail(email, "Confirm your place on the Tieout waitlist")).text;
  const token = /\/waitlist\/confirm\?token=([\w-]+)/.exec(text)?.[1];
  expect(token, "the confirmation link").toBeTruthy();
  const pressed = await fetch(`${BASE_URL}/waitlist/confirm`, {
    method: "POST",
    headers: FORM,
    body: new URLSearchParams({ token: token! }),
  });
  expect(pressed.status).toBe(200);
}

/** An administrator of the main server signed in through `context`, verified by their passkey. */
async function signInAdmin(context: BrowserContext, email: string) {
  const account = {
    email,
    password: PASSWORD,
    uid: await ensureUser(email, PASSWORD, { verified: true }),
  };
  const { cookie } = await signInBrowserVerified(context, MAIN_SERVER, account);
  return { account, cookie, cookieName: cookie.split("=")[0]! };
}

/** Signs out the session the browser holds now (a verification gives it a new id). */
async function signOutBrowser(context: BrowserContext, cookieName: string) {
  const held = (await context.cookies(BASE_URL)).find((c) => c.name === cookieName);
  if (held) await signOut(BASE_URL, `${held.name}=${held.value}`);
}

/**
 * Chromium's virtual authenticator in this tab, holding the passkey the test helpers enrolled and
 * keep for `email` on the main server (tests/support/admin-passkey.ts); resolves with a reading of
 * how many signatures it made since.
 */
async function passkeyInBrowser(page: Page, email: string) {
  const file = path.join(E2E_DATA_DIR, "e2e-passkeys", `${email.toLowerCase()}.json`);
  const saved = JSON.parse(readFileSync(file, "utf8")) as SoftAuthenticatorJSON;
  const credential = saved.credentials.at(-1)!;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  await cdp.send("WebAuthn.addCredential", {
    authenticatorId,
    credential: {
      credentialId: Buffer.from(credential.id, "base64url").toString("base64"),
      isResidentCredential: true,
      rpId: credential.rpId,
      privateKey: createPrivateKey({ key: credential.privateKey, format: "jwk" })
        .export({ format: "der", type: "pkcs8" })
        .toString("base64"),
      userHandle: Buffer.from(credential.userHandle, "base64url").toString("base64"),
      signCount: credential.counter,
    },
  });
  return async () => {
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    return (credentials[0]?.signCount ?? 0) - credential.counter;
  };
}

/** The page's clock, 16 minutes past the step-up the sign-in gave: the browser asks again. */
const pastTheStepUp = (page: Page) => page.clock.install({ time: Date.now() + 16 * 60_000 });

/** Fills the composer; `states` are the audience's boxes to tick. */
async function compose(
  page: Page,
  draft: { subject: string; body: string; search: string; states?: string[] },
) {
  await page.getByRole("radio", { name: /^Waitlist news/ }).check();
  await page.getByLabel("Subject").fill(draft.subject);
  await page.getByLabel("Body").fill(draft.body);
  for (const state of draft.states ?? ["Confirmed"])
    await page.getByRole("checkbox", { name: state }).check();
  await page.getByLabel("Name, email or company contains").fill(draft.search);
}

test.describe("with the shared administrator", () => {
  test.use({ expectedConsoleErrors: [UNPROCESSABLE_RESPONSE] });

  test("a draft is composed and counted, its test goes to the administrator, and a body with HTML is refused with nothing saved", async ({
    page,
    signedInAdmin,
  }) => {
    const tag = newTag();
    const company = `Ledger ${tag} LLP`;
    await confirmedEntry("Ada Count", `${tag}-ada@example.com`, company);
    await confirmedEntry("Ben Count", `${tag}-ben@example.com`, company);

    await page.goto("/admin/broadcasts");
    await expect(page.getByRole("heading", { level: 1, name: "Broadcasts" })).toBeVisible();
    await expect(
      page.getByRole("navigation", { name: "Admin pages" }).getByText("Broadcasts"),
    ).toHaveAttribute("aria-current", "page");
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("link", { name: "New broadcast" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "New broadcast" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Who it goes to" })).toContainText(
      "Save the draft to see how many people it goes to.",
    );
    expect(await axeViolations(page)).toEqual([]);

    // HTML in the body: refused, at the body, and no broadcast is made.
    const refusedSubject = `Refused ${tag}`;
    await compose(page, {
      subject: refusedSubject,
      body: "Hello.\n\n<script>alert(1)</script>",
      search: tag,
    });
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(page.getByRole("alert")).toContainText("the body contains HTML");
    await expect(page).toHaveURL(/\/admin\/broadcasts\/new$/);
    await expect(page.getByLabel("Body")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Body")).toHaveValue("Hello.\n\n<script>alert(1)</script>");

    // Written again in Markdown, it is saved, on its own page, and counted.
    const subject = `News for ${tag}`;
    await page.getByLabel("Subject").fill(subject);
    await page.getByLabel("Body").fill("Hello from the **ledger** team.\n\n- One\n- Two");
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(page.getByRole("status")).toHaveText("Draft saved.");
    await expect(page).toHaveURL(/\/admin\/broadcasts\/\d+$/);
    await expect(page.getByRole("heading", { level: 1, name: "Broadcast draft" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Who it goes to" })).toContainText(
      "This goes to 2 people.",
    );
    await expect(page.getByRole("region", { name: "Who it goes to" })).not.toContainText(
      "suppression list",
    );
    await expect(page.getByLabel("Subject")).toHaveValue(subject);
    expect(await axeViolations(page)).toEqual([]);

    // A test goes to the administrator's own address, marked as one.
    await page.getByRole("button", { name: "Send test to me" }).click();
    await expect(page.getByRole("status")).toContainText(
      `A test is on its way to ${signedInAdmin.email}`,
    );
    const mail = (await inboxMail(signedInAdmin.email, `[Test] ${subject}`)).text;
    expect(mail).toContain("Hello from the *ledger* team.");
    expect(mail).toContain("- One\n- Two");

    await page.getByRole("link", { name: "All broadcasts" }).click();
    const list = page.getByRole("region", { name: "Broadcasts" });
    const row = list.getByRole("row").filter({ hasText: subject });
    await expect(row).toContainText("Waitlist news");
    await expect(row).toContainText("Draft");
    await expect(row).toContainText(signedInAdmin.email);
    await expect(list.getByRole("row").filter({ hasText: refusedSubject })).toHaveCount(0);
    await expect(list.getByRole("link", { name: subject })).toHaveAttribute(
      "href",
      /^\/admin\/broadcasts\/\d+$/,
    );
  });

  test("Preview shows both parts the recipient gets: the HTML in a sandboxed frame and the plain text", async ({
    page,
    signedInAdmin: _signedIn,
  }) => {
    const tag = newTag();
    await page.goto("/admin/broadcasts/new");
    await compose(page, {
      subject: `Preview ${tag}`,
      body: "## What is new\n\nThe **beta** opens in [March](https://example.com/march).",
      search: tag,
    });
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(page).toHaveURL(/\/admin\/broadcasts\/\d+$/);
    await expect(page.getByRole("heading", { level: 2, name: "Preview" })).toBeVisible();

    const frame = page.getByTitle("HTML preview");
    await expect(frame).toHaveAttribute("sandbox", "");
    await expect(frame).toHaveAttribute("src", /^\/admin\/broadcasts\/\d+\/preview\?at=\w+$/);
    const html = page.frameLocator('iframe[title="HTML preview"]');
    await expect(html.getByRole("heading", { name: "What is new" })).toBeVisible();
    await expect(html.getByRole("link", { name: "March" })).toHaveAttribute(
      "href",
      "https://example.com/march",
    );
    await expect(html.locator("body")).toContainText("The beta opens in March");

    const text = page.getByRole("figure", { name: "Plain-text preview" });
    await expect(text).toContainText("What is new");
    await expect(text).toContainText("Hello Ada,");
    await expect(text).toContainText("The *beta* opens in March (https://example.com/march).");
    await expect(text).toContainText("Unsubscribe from waitlist news");
    expect(await axeViolations(page)).toEqual([]);

    // In the mail's own inline styles, as the recipient sees it: its title is set in 22 px.
    await expect(html.getByRole("heading", { level: 1 })).toHaveCSS("font-size", "22px");

    // The frame's document is the admin's alone, and may run and send nothing wherever it opens.
    const src = (await frame.getAttribute("src")) ?? "";
    const own = await page.request.get(src);
    expect(own.status()).toBe(200);
    expect(own.headers()["content-security-policy"]).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; form-action 'none'; base-uri 'none'; frame-ancestors 'self'; sandbox",
    );
    expect(own.headers()["x-frame-options"]).toBe("SAMEORIGIN");
    expect(own.headers()["cache-control"]).toBe("private, no-store");
    const stranger = await fetch(new URL(src, BASE_URL));
    expect(stranger.status).toBe(401);
    expect(await stranger.text()).not.toContain("beta");
  });
});

test("without JavaScript, Save draft on a new broadcast lands on the draft's own page", async ({
  browser,
  admin,
}) => {
  const { cookie } = await signInVerified(MAIN_SERVER, admin);
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: BASE_URL });
  try {
    await useCookie(context, BASE_URL, cookie);
    const page = await context.newPage();
    const tag = newTag();
    await page.goto("/admin/broadcasts/new");
    await compose(page, { subject: `Plain ${tag}`, body: "Hello without scripts.", search: tag });
    // The new broadcast's save answers 307: the browser posts the same form to its own page.
    await page.getByRole("button", { name: "Save draft" }).click();
    await expect(page).toHaveURL(/\/admin\/broadcasts\/\d+$/);
    await expect(page.getByRole("status")).toHaveText("Draft saved.");
    await expect(page.getByRole("region", { name: "Who it goes to" })).toContainText(
      "This goes to nobody.",
    );
    await expect(page.getByLabel("Subject")).toHaveValue(`Plain ${tag}`);
  } finally {
    await context.close();
    await signOut(BASE_URL, cookie);
  }
});

test("Send now asks for the passkey, sends each recipient the mail once, and the progress page counts it", async ({
  page,
  context,
}) => {
  const tag = newTag();
  const company = `Ledger ${tag} LLP`;
  const [first, second, stopped] = ["cy", "di", "ed"].map((n) => `${tag}-${n}@example.com`);
  await confirmedEntry("Cy Send", first!, company);
  await confirmedEntry("Di Send", second!, company);
  await confirmedEntry("Ed Stopped", stopped!, company);
  const { cookie, cookieName } = await signInAdmin(context, SENDER);
  try {
    const suppressed = await fetch(`${BASE_URL}/admin/suppressions`, {
      method: "POST",
      headers: { ...FORM, cookie },
      body: new URLSearchParams({ intent: "add", address: stopped!, detail: "Asked by phone" }),
    });
    expect(suppressed.status).toBe(200);

    await pastTheStepUp(page);
    await page.goto("/admin/broadcasts/new");
    const signatures = await passkeyInBrowser(page, SENDER);
    const subject = `Beta news ${tag}`;
    await compose(page, {
      subject,
      body: "# The beta\n\nIt opens next week. Thank you for waiting.",
      search: tag,
    });
    await page.getByRole("button", { name: "Save draft" }).click();
    const reach = page.getByRole("region", { name: "Who it goes to" });
    await expect(reach).toContainText("This goes to 2 people.");
    await expect(reach).toContainText("1 more is on the suppression list and gets nothing.");
    const draftUrl = page.url();

    await page.locator(HYDRATED_PAGE).waitFor();
    await page.getByRole("button", { name: "Send now" }).click();
    await expect(page.getByRole("status")).toHaveText("Sending has started to 3 recipients.");
    expect(await signatures(), "passkey signatures").toBe(1);
    await expect(page.getByRole("heading", { level: 1, name: subject })).toBeVisible();
    await expect(page.getByRole("button", { name: "Send now" })).toHaveCount(0);

    // The page asks for its figures again while it sends, until the last mail is handed over.
    const progress = page.getByRole("list", { name: "Progress" }).getByRole("listitem");
    await expect(progress).toHaveText(
      [
        "2 sent",
        "0 waiting",
        "0 failed",
        "1 suppressed",
        "0 unsubscribed",
        "0 bounced",
        "0 complained",
      ],
      { timeout: 30_000 },
    );
    await expect(page.getByRole("heading", { name: "Status: Finished" })).toBeVisible({
      timeout: 15_000,
    });
    await expect(page.getByText("Out of 3 recipients")).toBeVisible();
    await expect(page.getByRole("main")).toContainText(
      `Confirmed entries whose name, email or company contains “${tag}”`,
    );
    expect(await axeViolations(page)).toEqual([]);

    for (const address of [first!, second!]) {
      const text = (await inboxMail(address, subject)).text;
      expect(text).toContain("It opens next week.");
      expect(text).toContain("Unsubscribe from waitlist news");
    }

    // Sent again, as a second press or a reload would: the service says so and sends nothing.
    const again = await page.request.post(draftUrl, {
      form: {
        intent: "send",
        kind: "waitlist-news",
        subject,
        body: "Again",
        states: "confirmed",
        search: tag,
      },
    });
    expect(again.status()).toBe(409);
    expect(await again.text()).toContain("This broadcast is already finished");
    // Finished means the outbox holds none of its mail, and the refusal enqueued nothing: what the
    // inbox holds now is all there will be.
    for (const address of [first!, second!])
      expect((await inboxSubjects(address)).filter((s) => s === subject)).toHaveLength(1);
    expect(await inboxSubjects(stopped!)).not.toContain(subject);
  } finally {
    await signOutBrowser(context, cookieName);
  }
});

test("an address is suppressed, found by a search, and taken off the list with a reason after the passkey", async ({
  page,
  context,
}) => {
  const address = uniqueEmail("suppressed");
  const { account, cookieName } = await signInAdmin(context, KEEPER);
  try {
    await pastTheStepUp(page);
    await page.goto("/admin/broadcasts");
    await page.getByRole("link", { name: "Suppressions" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Suppressions" })).toBeVisible();
    await page.locator(HYDRATED_PAGE).waitFor();
    const signatures = await passkeyInBrowser(page, KEEPER);
    expect(await axeViolations(page)).toEqual([]);

    const suppress = page.getByRole("region", { name: "Suppress an address" });
    await suppress.getByLabel("Address").fill(address.toUpperCase());
    await suppress.getByLabel("Reason").fill("Asked by phone not to be mailed");
    await suppress.getByRole("button", { name: "Suppress" }).click();
    await expect(page.getByRole("status")).toHaveText(`${address} is suppressed.`);
    await expect(suppress.getByLabel("Address")).toHaveValue("");

    const search = page.getByRole("search", { name: "Search the list" });
    await search.getByLabel("Address").fill(address);
    await search.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/\?q=/);
    const table = page.getByRole("region", { name: "Suppressed addresses" });
    const row = table.getByRole("row").filter({ hasText: address });
    await expect(row.getByRole("cell")).toHaveText([
      address,
      "All mail",
      "Added by an administrator",
      "Asked by phone not to be mailed",
      /^\w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M$/,
      account.email,
    ]);
    expect(await signatures(), "no passkey for a suppression").toBe(0);

    const remove = page.getByRole("region", { name: "Remove from the list" });
    await remove.getByLabel("Address").fill(address);
    await remove.getByLabel("Reason it may be mailed again").fill("Wrote to ask for the news");
    await remove.getByRole("button", { name: "Remove from the list" }).click();
    await expect(page.getByRole("status")).toHaveText(
      `${address} may be mailed again: 1 suppression removed.`,
    );
    expect(await signatures(), "passkey signatures").toBe(1);
    await expect(table.getByRole("cell")).toHaveText(["No suppression matches."]);

    await remove.getByLabel("Address").fill(address);
    await remove.getByLabel("Reason it may be mailed again").fill("Pressed twice");
    await remove.getByRole("button", { name: "Remove from the list" }).click();
    await expect(page.getByRole("status")).toHaveText(`${address} was not on the list.`);
    expect(await axeViolations(page)).toEqual([]);

    await page.goto("/admin/activity");
    const log = page.getByRole("region", { name: "Administrator activity" });
    for (const what of ["Address suppressed", "Suppression removed"])
      await expect(
        log.getByRole("row").filter({ hasText: what }).filter({ hasText: account.email }),
      ).not.toHaveCount(0);
  } finally {
    await signOutBrowser(context, cookieName);
  }
});
