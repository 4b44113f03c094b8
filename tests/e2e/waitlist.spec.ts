import type { APIRequestContext, Page } from "@playwright/test";
import {
  adminExportToken,
  ensureAdmin,
  ensureUnverifiedAdmin,
  idTokenFor,
  MAIN_SERVER,
  signIn,
} from "#tests/support/accounts.ts";
import { BASE_URL, E2E_ADMIN_EMAIL } from "#tests/support/e2e-env.ts";
import { uniqueEmail } from "#tests/support/emulator.ts";
import { expect, test, waitForHydration } from "#tests/support/fixtures.ts";
import { APP_ENTRY } from "#tests/support/first-press.ts";
import { LANDING_FIELD } from "#src/lib/hydration-protocol.ts";
import {
  FORBIDDEN_RESPONSE,
  SERVICE_UNAVAILABLE_RESPONSE,
} from "#tests/support/console-messages.ts";

/** The waitlist as the administrator's script exports it, with an export token. */
async function exportCsv(request: APIRequestContext): Promise<string> {
  const response = await request.get("/api/admin/waitlist.csv", {
    headers: { Authorization: `Bearer ${await adminExportToken(MAIN_SERVER)}` },
  });
  expect(response.status()).toBe(200);
  return (await response.body()).toString("utf8");
}

function rowsFor(csv: string, email: string): string[] {
  return csv
    .split("\r\n")
    .filter((line) => line.toLowerCase().includes(`"${email.toLowerCase()}"`));
}

async function fillForm(
  page: Page,
  values: { name: string; email: string; company?: string; message?: string },
) {
  await page.getByLabel("Full Name").fill(values.name);
  await page.getByLabel("Email").fill(values.email);
  if (values.company) await page.getByLabel("Company (Optional)").fill(values.company);
  if (values.message) await page.getByLabel("Tell us about your use case").fill(values.message);
}

test.describe("the waitlist page", () => {
  test("lays out the page: heading, Back, the Request Access card, fields and links", async ({
    page,
  }) => {
    await page.goto("/waitlist");
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1, name: "Join the Waitlist" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Back" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Request Access" })).toBeVisible();
    for (const label of [
      "Full Name",
      "Email",
      "Company (Optional)",
      "Tell us about your use case",
    ]) {
      await expect(page.getByLabel(label)).toBeVisible();
    }
    await expect(page.getByRole("link", { name: "Already have access? Sign in" })).toHaveAttribute(
      "href",
      "/login",
    );
    await expect(
      page.getByRole("main").getByRole("link", { name: "Privacy Policy" }),
    ).toHaveAttribute("href", "/privacy-policy");
  });

  test("with JavaScript: submits in place, thanks the visitor, and the entry is stored with its source", async ({
    page,
    request,
  }) => {
    const email = uniqueEmail("lead");
    await page.goto("/?utm_source=newsletter&utm_medium=email&utm_campaign=busy-season");
    await waitForHydration(page);
    await page.getByRole("link", { name: "See it in action" }).click();
    await expect(page).toHaveURL("/waitlist");
    await waitForHydration(page);
    await fillForm(page, {
      name: "Grace Hopper",
      email,
      company: "Hopper & Co CPAs",
      message: "1120-S season",
    });
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/waitlist", async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole("button", { name: "Join Waitlist" }).click();
    await expect(page.getByRole("button", { name: "Submitting..." })).toBeDisabled();
    release();
    await expect(page.getByRole("heading", { name: "You're on the list!" })).toBeVisible();
    const notice = page
      .getByRole("region", { name: /Notifications/ })
      .getByRole("listitem")
      .filter({ hasText: "Thank you!" });
    await expect(notice).toContainText(
      "You've been added to our waitlist. We'll be in touch soon.",
    );
    await page.getByRole("link", { name: "Back to Login" }).click();
    await expect(page).toHaveURL("/login");

    const [row] = rowsFor(await exportCsv(request), email);
    expect(row).toContain('"Grace Hopper"');
    expect(row).toContain('"Hopper & Co CPAs"');
    expect(row).toContain('"newsletter","email","busy-season"');
    expect(row).toContain("utm_source=newsletter");
  });

  test("a campaign is kept when the visitor opens the waitlist before the first page's app ran", async ({
    page,
    request,
  }) => {
    const email = uniqueEmail("moved-on");
    // The first page's app never arrives: the visitor moves on as soon as it is painted, by an
    // address typed, a bookmark or the history, and nothing on the first page was touched.
    await page.route("**/assets/**/*.js", (route) => route.abort());
    await page.goto("/?utm_source=x&utm_campaign=y", {
      referer: "https://partner.example.net/articles/close",
    });
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await page.unrouteAll();
    await page.goto("/waitlist");
    await fillForm(page, { name: "Moved On", email });
    await page.getByRole("main").getByRole("button", { name: "Join Waitlist" }).click();
    await expect(page.getByRole("heading", { name: "You're on the list!" })).toBeVisible();

    const [row] = rowsFor(await exportCsv(request), email);
    expect(row).toContain('"x","","y"');
    expect(row).toContain('"https://partner.example.net/articles/close"');
    expect(row).toContain('"/?utm_source=x&utm_campaign=y"');
  });

  test("with JavaScript off on the first page, a link followed from it still carries its campaign", async ({
    page,
    request,
  }) => {
    const email = uniqueEmail("scriptless-first");
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Emulation.setScriptExecutionDisabled", { value: true });
    await page.goto("/?utm_source=x&utm_campaign=y", {
      referer: "https://partner.example.net/articles/close",
    });
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await cdp.send("Emulation.setScriptExecutionDisabled", { value: false });
    await page.getByRole("banner").getByRole("link", { name: "Join Waitlist" }).click();
    await expect(page).toHaveURL("/waitlist");
    await fillForm(page, { name: "Scriptless First", email });
    await page.getByRole("main").getByRole("button", { name: "Join Waitlist" }).click();
    await expect(page.getByRole("heading", { name: "You're on the list!" })).toBeVisible();

    // The first page could note nothing: the campaign is in the address the link was followed
    // from; the site before it is gone with the first page.
    const [row] = rowsFor(await exportCsv(request), email);
    expect(row).toContain('"x","","y"');
    expect(row).toContain('"/?utm_source=x&utm_campaign=y"');
    expect(row).not.toContain("partner.example.net");
  });

  test.describe("on a phone, before the app is ready", () => {
    test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

    test("the call to action and the form go as without JavaScript, the app is never fetched, and the campaign is kept", async ({
      page,
      request,
    }) => {
      const email = uniqueEmail("first-tap");
      const appRequests: string[] = [];
      page.on("request", (r) => {
        if (APP_ENTRY.test(r.url())) appRequests.push(r.url());
      });
      await page.goto("/?utm_source=first-tap&utm_campaign=spring", {
        referer: "https://partner.example.net/articles/ties",
      });
      await page.getByRole("link", { name: "See it in action" }).tap();
      await expect(page).toHaveURL("/waitlist");
      // Typing into a form the browser will send does not start the app either (decision 040).
      await fillForm(page, { name: "First Tap", email });
      const posted = page.waitForRequest(
        (r) => r.method() === "POST" && new URL(r.url()).pathname === "/waitlist",
      );
      await page.getByRole("main").getByRole("button", { name: "Join Waitlist" }).tap();
      // The browser's own post, carrying the landing note the first page wrote.
      const sent = new URLSearchParams((await posted).postData() ?? "");
      expect(JSON.parse(sent.get(LANDING_FIELD) ?? "null")).toEqual([
        `${BASE_URL}/?utm_source=first-tap&utm_campaign=spring`,
        "https://partner.example.net/articles/ties",
      ]);
      await expect(page.getByRole("heading", { name: "You're on the list!" })).toBeVisible();
      expect(appRequests).toEqual([]);

      const [row] = rowsFor(await exportCsv(request), email);
      expect(row).toContain('"first-tap","","spring"');
      expect(row).toContain('"https://partner.example.net/articles/ties"');
      expect(row).toContain('"/?utm_source=first-tap&utm_campaign=spring"');
    });
  });

  test("without JavaScript: a plain form post lands on the thank-you view and is stored", async ({
    browser,
    request,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const email = uniqueEmail("nojs");
    await page.goto("/waitlist?utm_source=linkedin");
    await fillForm(page, { name: "Noor Script", email });
    await page.getByRole("button", { name: "Join Waitlist" }).click();
    await expect(page.getByRole("heading", { name: "You're on the list!" })).toBeVisible();
    await context.close();
    const [row] = rowsFor(await exportCsv(request), email);
    expect(row).toContain('"Noor Script"');
    expect(row).toContain('"linkedin"');
  });

  test("without JavaScript: errors are shown per field and what was typed is kept", async ({
    browser,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/waitlist");
    await fillForm(page, { name: "Kept Name", email: "not-an-email", company: "Kept Co" });
    await page.getByRole("button", { name: "Join Waitlist" }).click();
    await expect(page.getByRole("alert")).toContainText("Please correct the highlighted fields.");
    await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("Please enter a valid email address.")).toBeVisible();
    await expect(page.getByLabel("Full Name")).toHaveValue("Kept Name");
    await expect(page.getByLabel("Company (Optional)")).toHaveValue("Kept Co");
    await context.close();
  });

  test("with JavaScript: the first invalid field gets focus and its error", async ({ page }) => {
    await page.goto("/waitlist");
    await waitForHydration(page);
    await page.getByLabel("Email").fill("someone@example.com");
    await page.getByRole("button", { name: "Join Waitlist" }).click();
    await expect(page.getByLabel("Full Name")).toBeFocused();
    await expect(page.getByLabel("Full Name")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("Please enter your name.")).toBeVisible();
  });

  test.describe(() => {
    test.use({ expectedConsoleErrors: [SERVICE_UNAVAILABLE_RESPONSE] });
    test("a failure says so in a notice and keeps what was typed", async ({ page }) => {
      await page.goto("/waitlist");
      await waitForHydration(page);
      await fillForm(page, {
        name: "Still Here",
        email: uniqueEmail("outage"),
        message: "Do not lose this",
      });
      await page.route("**/api/waitlist", (route) =>
        route.fulfill({
          status: 503,
          contentType: "application/json",
          body: JSON.stringify({ ok: false, message: "down" }),
        }),
      );
      await page.getByRole("button", { name: "Join Waitlist" }).click();
      const notice = page
        .getByRole("region", { name: /Notifications/ })
        .getByRole("listitem")
        .filter({ hasText: "Error" });
      await expect(notice).toContainText(
        "There was an error submitting your request. Please try again.",
      );
      await expect(page.getByLabel("Full Name")).toHaveValue("Still Here");
      await expect(page.getByLabel("Tell us about your use case")).toHaveValue("Do not lose this");
      await expect(page.getByRole("heading", { name: "You're on the list!" })).toHaveCount(0);
    });
  });
});

test.describe("POST /api/waitlist", () => {
  test("202 with the same body for a new entry and for the same email in another case, one row", async ({
    request,
  }) => {
    const email = uniqueEmail("Twice");
    const first = await request.post("/api/waitlist", { data: { name: "Twice", email } });
    const second = await request.post("/api/waitlist", {
      form: { name: "Twice Again", email: email.toUpperCase() },
    });
    expect(first.status()).toBe(202);
    expect(second.status()).toBe(202);
    expect(await second.json()).toEqual(await first.json());
    expect(rowsFor(await exportCsv(request), email)).toHaveLength(1);
  });

  test("bad input is refused with a message per field, and nothing is stored", async ({
    request,
  }) => {
    const email = uniqueEmail("refused");
    const cases = [
      { body: '{"name": "Broken", "email": ', type: "application/json", status: 400 },
      { body: JSON.stringify({ name: 7, email }), type: "application/json", status: 422 },
      {
        body: JSON.stringify({ name: "x".repeat(201), email }),
        type: "application/json",
        status: 422,
      },
      {
        body: JSON.stringify({ name: "Huge", email, message: "m".repeat(5001) }),
        type: "application/json",
        status: 422,
      },
      { body: JSON.stringify([{ name: "Array", email }]), type: "application/json", status: 422 },
      { body: `name=Plain&email=${email}`, type: "text/plain", status: 415 },
      {
        body: JSON.stringify({ name: "Big", email, message: "b".repeat(2 * 1024 * 1024) }),
        type: "application/json",
        status: 413,
      },
    ];
    for (const c of cases) {
      const response = await request.post("/api/waitlist", {
        data: Buffer.from(c.body),
        headers: { "Content-Type": c.type },
      });
      expect(response.status(), c.body.slice(0, 40)).toBe(c.status);
      const body = (await response.json()) as {
        ok: boolean;
        message: string;
        errors?: Record<string, string>;
      };
      expect(body.ok).toBe(false);
      expect(body.message.length).toBeGreaterThan(5);
      expect(JSON.stringify(body)).not.toMatch(/\bat \w+ \(|node_modules|\.ts:\d+/);
    }
    const wrongTypes = await request.post("/api/waitlist", { data: { name: 7, email: ["a"] } });
    expect(((await wrongTypes.json()) as { errors: Record<string, string> }).errors).toEqual({
      name: "Full name must be text.",
      email: "Email must be text.",
    });
    expect(rowsFor(await exportCsv(request), email)).toHaveLength(0);
  });

  test("the honeypot gets a success and stores nothing", async ({ request }) => {
    const email = uniqueEmail("bot");
    const response = await request.post("/api/waitlist", {
      data: { name: "Bot", email, website: "http://spam.example" },
    });
    expect(response.status()).toBe(202);
    expect(rowsFor(await exportCsv(request), email)).toHaveLength(0);
  });

  test("GET /api/health reports the database", async ({ request }) => {
    const response = await request.get("/api/health");
    expect(response.status()).toBe(200);
    // `npm start` (which started this server) runs React's production build, whatever NODE_ENV says.
    expect(await response.json()).toEqual({ ok: true, database: "ok", react: "production" });
  });
});

test.describe("admin export", () => {
  test("refused without credentials, for a non-admin, an unverified admin email, any ID token and a forged one", async ({
    request,
    newUser: outsider,
  }) => {
    expect((await request.get("/api/admin/waitlist.csv")).status()).toBe(401);

    // A session of someone who is no administrator, and of an administrator's unverified address.
    const { cookie } = await signIn(BASE_URL, outsider);
    expect(
      (await request.get("/api/admin/waitlist.csv", { headers: { Cookie: cookie } })).status(),
    ).toBe(403);
    const unverified = await signIn(BASE_URL, await ensureUnverifiedAdmin());
    const toVerify = await request.get("/api/admin/waitlist.csv", {
      headers: { Cookie: unverified.cookie },
    });
    expect(toVerify.status()).toBe(403);
    expect(await toVerify.text()).toContain("not verified yet");

    // A Firebase ID token is no export token, whoever it is for (decision 039).
    for (const account of [outsider, await ensureAdmin()]) {
      const byIdToken = await request.get("/api/admin/waitlist.csv", {
        headers: { Authorization: `Bearer ${await idTokenFor(account)}` },
      });
      expect(byIdToken.status()).toBe(401);
      expect(await byIdToken.json()).toMatchObject({ missing: "export-token" });
    }

    // An unsigned token claiming the admin's address, as the emulator would mint one.
    const now = Math.floor(Date.now() / 1000);
    const forged = [
      Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url"),
      Buffer.from(
        JSON.stringify({
          iss: "https://securetoken.google.com/demo-tieout-e2e",
          aud: "demo-tieout-e2e",
          sub: "forged-admin-uid",
          user_id: "forged-admin-uid",
          email: E2E_ADMIN_EMAIL,
          email_verified: true,
          iat: now,
          auth_time: now,
          exp: now + 3600,
          firebase: { sign_in_provider: "password", identities: {} },
        }),
      ).toString("base64url"),
      "",
    ].join(".");
    expect(
      (
        await request.get("/api/admin/waitlist.csv", {
          headers: { Authorization: `Bearer ${forged}` },
        })
      ).status(),
    ).toBe(401);
  });

  test("an admin's CSV opens in Excel: BOM, formulas neutralised, non-Latin text kept", async ({
    request,
  }) => {
    const email = uniqueEmail("excel");
    await request.post("/api/waitlist", {
      data: {
        name: '=HYPERLINK("http://evil.example","click")',
        email,
        company: "Ørsted & Müller 李",
        message: "@SUM(A1:A9)",
      },
    });
    const response = await request.get("/api/admin/waitlist.csv", {
      headers: { Authorization: `Bearer ${await adminExportToken(MAIN_SERVER)}` },
    });
    expect(response.headers()["content-type"]).toBe("text/csv; charset=utf-8");
    expect(response.headers()["content-disposition"]).toMatch(
      /^attachment; filename="tieout-waitlist-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const bytes = await response.body();
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [row] = rowsFor(bytes.toString("utf8"), email);
    expect(row).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
    expect(row).toContain('"Ørsted & Müller 李"');
    expect(row).toContain(`"'@SUM(A1:A9)"`);
  });

  test("the admin page lists entries newest first, counts and searches them", async ({
    signedInAdmin: _signedIn,
    page,
    request,
  }) => {
    const older = uniqueEmail("older");
    const newer = uniqueEmail("newer");
    // A company no other entry has, whichever tests ran before on this server's database.
    const company = `Searchable ${older.split("@")[0]} Partners`;
    await request.post("/api/waitlist", { data: { name: "Older Lead", email: older, company } });
    await request.post("/api/waitlist", { data: { name: "Newer Lead", email: newer } });

    // Signed out, the page sends the visitor to sign in.
    expect((await request.get("/admin/waitlist", { maxRedirects: 0 })).status()).toBe(302);
    await page.goto("/admin/waitlist");
    await expect(page.getByRole("heading", { level: 1, name: "Waitlist" })).toBeVisible();
    await expect(page.getByRole("main")).toContainText(/\d+ entries, newest first/);
    const emails = await page.getByRole("row").allTextContents();
    const newerIndex = emails.findIndex((r) => r.includes(newer));
    const olderIndex = emails.findIndex((r) => r.includes(older));
    expect(newerIndex).toBeGreaterThan(0);
    expect(newerIndex).toBeLessThan(olderIndex);

    await page.getByLabel("Search by name, email or company").fill(company);
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByRole("table", { name: /^Waitlist entries/ })).toHaveAccessibleName(
      `Waitlist entries, newest first, matching “${company}”`,
    );
    await expect(page.getByRole("row").filter({ hasText: older })).toHaveCount(1);
    await expect(page.getByRole("row").filter({ hasText: newer })).toHaveCount(0);

    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export CSV" }).click();
    expect((await download).suggestedFilename()).toMatch(/^tieout-waitlist-.*\.csv$/);
  });

  test.describe(() => {
    test.use({ expectedConsoleErrors: [FORBIDDEN_RESPONSE] });
    test("a signed-in visitor who is not an admin gets 403 on the admin page", async ({
      signedInUser: _signedIn,
      page,
    }) => {
      const response = await page.goto("/admin/waitlist");
      expect(response?.status()).toBe(403);
    });
  });
});
