import type { Page } from "@playwright/test";
import { oobCodes, uniqueEmail } from "#tests/support/emulator.ts";
import { expect, test, waitForHydration } from "#tests/support/fixtures.ts";
import {
  BAD_REQUEST_RESPONSE,
  PASSWORD_RESET_FAILED_LOG,
  SIGN_IN_FAILED_LOG,
  SIGN_UP_FAILED_LOG,
} from "#tests/support/console-messages.ts";

const PASSWORD = "correct-horse-9";

function notices(page: Page) {
  return page.getByRole("region", { name: /Notifications/ }).getByRole("listitem");
}

async function expectNotice(page: Page, title: string, description: string) {
  const notice = notices(page).filter({ hasText: title });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText(description);
}

async function signInThroughForm(page: Page, email: string, password: string) {
  await page.goto("/login");
  await waitForHydration(page);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

/** Asks for a password reset link on /forgot-password, as a person does. */
async function askForResetLink(page: Page, email: string) {
  await page.goto("/forgot-password");
  await waitForHydration(page);
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send Reset Link" }).click();
}

const header = (page: Page) => page.getByRole("banner");

async function submitSignUp(page: Page, email: string, password: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Confirm Password").fill(password);
  await page.getByRole("button", { name: "Create Account" }).click();
}

test.describe("sign-up", () => {
  test("creates the account, says so, lands on / and shows Sign Out; the address gets its verification mail", async ({
    page,
  }) => {
    const email = uniqueEmail("new");
    await page.goto("/signup");
    await waitForHydration(page);
    await expect(page.getByText("Must be at least 6 characters long")).toBeVisible();
    await expect(page.getByRole("main").getByRole("link", { name: "Sign in" })).toHaveAttribute(
      "href",
      "/login",
    );
    await submitSignUp(page, email, PASSWORD);
    await expectNotice(
      page,
      "Account Created!",
      "Welcome! Your account has been successfully created.",
    );
    await expect(page).toHaveURL("/");
    await expect(header(page).getByRole("button", { name: "Sign Out" })).toBeVisible();
    await expect(header(page).getByRole("link", { name: "Sign In" })).toHaveCount(0);
    await expect
      .poll(async () => (await oobCodes(email)).map((c) => c.requestType))
      .toEqual(["VERIFY_EMAIL"]);
  });

  test("refuses passwords that do not match, then ones that are too short", async ({ page }) => {
    await page.goto("/signup");
    await waitForHydration(page);
    await page.getByLabel("Email").fill(uniqueEmail("short"));
    await page.getByLabel("Password", { exact: true }).fill("abcdef");
    await page.getByLabel("Confirm Password").fill("abcdeg");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expectNotice(
      page,
      "Passwords Don't Match",
      "Please make sure both passwords are the same.",
    );

    await page.getByLabel("Password", { exact: true }).fill("abc");
    await page.getByLabel("Confirm Password").fill("abc");
    await page.getByRole("button", { name: "Create Account" }).click();
    await expectNotice(page, "Password Too Short", "Password must be at least 6 characters long.");
    await expect(page).toHaveURL("/signup");

    // Put right, the account is made, and the notices of the failed tries go with the success.
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirm Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create Account" }).click();
    await expectNotice(
      page,
      "Account Created!",
      "Welcome! Your account has been successfully created.",
    );
    await expect(notices(page)).toHaveCount(1);
  });

  test.describe(() => {
    test.use({ expectedConsoleErrors: [SIGN_UP_FAILED_LOG, BAD_REQUEST_RESPONSE] });
    test("an email that is already registered is refused", async ({ page, newUser }) => {
      await page.goto("/signup");
      await waitForHydration(page);
      await submitSignUp(page, newUser.email, PASSWORD);
      await expectNotice(
        page,
        "Sign Up Failed",
        "This email is already registered. Please sign in instead.",
      );
      await expect(page).toHaveURL("/signup");
    });
  });

  test("each password field has its own show/hide toggle", async ({ page }) => {
    await page.goto("/signup");
    await waitForHydration(page);
    const toggles = page.getByRole("button", { name: "Show password" });
    await expect(toggles).toHaveCount(2);
    const password = page.getByLabel("Password", { exact: true });
    await expect(password).toHaveAttribute("type", "password");
    await toggles.first().click();
    await expect(password).toHaveAttribute("type", "text");
    await expect(page.getByLabel("Confirm Password")).toHaveAttribute("type", "password");
    await page.getByRole("button", { name: "Hide password" }).click();
    await expect(password).toHaveAttribute("type", "password");
  });
});

test.describe("sign-in", () => {
  test("lays out the page: no link to sign-up", async ({ page }) => {
    await page.goto("/contact");
    await page.goto("/login");
    await waitForHydration(page);
    await expect(page.getByLabel("Email")).toHaveAttribute("type", "email");
    await expect(page.getByLabel("Email")).toHaveAttribute("autocomplete", "email");
    await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute(
      "autocomplete",
      "current-password",
    );
    await expect(page.getByRole("link", { name: "Forgot password?" })).toHaveAttribute(
      "href",
      "/forgot-password",
    );
    await expect(page.getByRole("link", { name: "Join the waitlist" })).toHaveAttribute(
      "href",
      "/waitlist",
    );
    await expect(page.locator('a[href="/signup"]')).toHaveCount(0);
    await page.getByRole("button", { name: "Show password" }).click();
    await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("type", "text");
    await page.getByRole("link", { name: "Back" }).click();
    await expect(page).toHaveURL("/contact");
  });

  test("signs in, welcomes back and lands on /", async ({ page, newUser }) => {
    await signInThroughForm(page, newUser.email, newUser.password);
    await expectNotice(page, "Welcome back!", "Successfully signed in to your account.");
    await expect(page).toHaveURL("/");
    await expect(header(page).getByRole("button", { name: "Sign Out" })).toBeVisible();
    // The server has the session too: it sends a signed-in visitor away from the sign-in page.
    expect((await page.request.get("/login", { maxRedirects: 0 })).status()).toBe(302);
  });

  test.describe(() => {
    test.use({ expectedConsoleErrors: [SIGN_IN_FAILED_LOG, BAD_REQUEST_RESPONSE] });

    test("a wrong password is refused", async ({ page, newUser }) => {
      await signInThroughForm(page, newUser.email, "not-the-password");
      await expectNotice(page, "Sign In Failed", "Incorrect password. Please try again.");
      await expect(page).toHaveURL("/login");
    });

    test("an unknown email is refused", async ({ page }) => {
      await signInThroughForm(page, uniqueEmail("nobody"), PASSWORD);
      await expectNotice(page, "Sign In Failed", "No account found with this email address.");
    });
  });

  test("shows 'Signing in...' with the button disabled while the request is under way", async ({
    page,
    newUser,
  }) => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/accounts:signInWithPassword**", async (route) => {
      await held;
      await route.continue();
    });
    await signInThroughForm(page, newUser.email, newUser.password);
    const busy = page.getByRole("button", { name: "Signing in..." });
    await expect(busy).toBeVisible();
    await expect(busy).toBeDisabled();
    release();
    await expect(page).toHaveURL("/");
  });
});

test.describe("Back", () => {
  test("with JavaScript off, Back is a link home", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      await page.goto("/contact");
      await page.goto("/login");
      await page.getByRole("link", { name: "Back" }).click();
      await expect(page).toHaveURL("/");
      await expect(page.getByRole("heading", { level: 1 })).toContainText("Workpapers");
    } finally {
      await context.close();
    }
  });

  test("pressed before the page's script runs, Back still goes one step back", async ({ page }) => {
    await page.goto("/contact");
    await page.goto("/login");
    // No wait for hydration: the loader holds the press and replays it once React is ready.
    await page.getByRole("link", { name: "Back" }).click();
    await expect(page).toHaveURL("/contact");
  });

  test("after a page of another site, or in a new tab, Back goes home and never leaves the site", async ({
    page,
  }) => {
    await page.goto("about:blank");
    await page.goto("/waitlist");
    await waitForHydration(page);
    await page.getByRole("link", { name: "Back" }).click();
    await expect(page).toHaveURL("/");

    const fresh = await page.context().newPage();
    await fresh.goto("/login");
    await waitForHydration(fresh);
    await fresh.getByRole("link", { name: "Back" }).click();
    await expect(fresh).toHaveURL("/");
    await fresh.close();
  });
});

test.describe("session", () => {
  test("a reload keeps the session and never shows 'Sign In', not for a frame", async ({
    signedInUser: _signedIn,
    page,
    request,
  }) => {
    // Watch the header from the first byte of every document: any 'Sign In' in it is recorded.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __signInSeen: string[] }).__signInSeen = seen;
      const check = () => {
        const banner = document.querySelector("header");
        if (banner && /Sign In/.test(banner.textContent ?? "")) seen.push(location.pathname);
      };
      new MutationObserver(check).observe(document, {
        childList: true,
        subtree: true,
        characterData: true,
      });
      document.addEventListener("DOMContentLoaded", check);
    });
    for (const path of ["/", "/contact", "/dpa"]) {
      await page.goto(path);
      await waitForHydration(page);
      await page.waitForLoadState("networkidle");
      await expect(header(page).getByRole("button", { name: "Sign Out" })).toBeVisible();
      expect(
        await page.evaluate(() => (window as unknown as { __signInSeen: string[] }).__signInSeen),
      ).toEqual([]);
    }

    // The server rendered that header: the HTML itself says Sign Out.
    const cookies = await page.context().cookies();
    const html = await (
      await request.get("/", {
        headers: { Cookie: cookies.map((c) => `${c.name}=${c.value}`).join("; ") },
      })
    ).text();
    expect(html).toContain(">Sign Out<");
    expect(html).not.toContain(">Sign In<");
  });

  test("signed-in visitors are sent away from /login and /signup by the server", async ({
    signedInUser: _signedIn,
    page,
  }) => {
    for (const path of ["/login", "/signup"]) {
      const response = await page.request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBe(302);
      expect(response.headers()["location"]).toBe("/");
      await page.goto(path);
      await expect(page).toHaveURL("/");
    }
  });

  test("Sign Out signs out, goes home and shows Sign In again", async ({
    signedInUser: _signedIn,
    page,
  }) => {
    await page.goto("/contact");
    await waitForHydration(page);
    await header(page).getByRole("button", { name: "Sign Out" }).click();
    await expect(page).toHaveURL("/");
    await expect(header(page).getByRole("link", { name: "Sign In" })).toBeVisible();
    // The server agrees: the session cookie is gone and /login is reachable again.
    await page.reload();
    await expect(header(page).getByRole("link", { name: "Sign In" })).toBeVisible();
    expect((await page.request.get("/login", { maxRedirects: 0 })).status()).toBe(200);
  });

  test("the token-sync endpoint refuses a missing, malformed or forged token", async ({
    request,
  }) => {
    expect((await request.post("/api/session")).status()).toBe(401);
    expect(
      (
        await request.post("/api/session", {
          headers: { Authorization: "Bearer not-a-token-at-all-really" },
        })
      ).status(),
    ).toBe(401);
    const forged = [
      Buffer.from(JSON.stringify({ alg: "RS256", kid: "x" })).toString("base64url"),
      Buffer.from(
        JSON.stringify({
          sub: "someone",
          aud: "other-project",
          iat: Math.floor(Date.now() / 1000),
        }),
      ).toString("base64url"),
      "c2lnbmF0dXJl",
    ].join(".");
    expect(
      (
        await request.post("/api/session", { headers: { Authorization: `Bearer ${forged}` } })
      ).status(),
    ).toBe(401);
    const crossSite = await request.delete("/api/session", {
      headers: { Origin: "https://evil.example" },
    });
    expect(crossSite.status()).toBe(403);
  });
});

test.describe("password reset", () => {
  test("sends the link, confirms with the address, and the email is really sent", async ({
    page,
    newUser: { email },
  }) => {
    await askForResetLink(page, email);
    await expectNotice(
      page,
      "Email Sent!",
      "Check your inbox and spam folder for password reset instructions.",
    );
    await expect(page.getByRole("heading", { name: "Check Your Email" })).toBeVisible();
    await expect(page.getByRole("main")).toContainText(email);
    await expect(page.getByRole("main")).toContainText("spam");
    expect((await oobCodes(email)).some((c) => c.requestType === "PASSWORD_RESET")).toBe(true);

    await page.getByRole("button", { name: "Try a Different Email" }).click();
    await expect(page.getByLabel("Email")).toHaveValue("");
    await expect(page.getByRole("button", { name: "Send Reset Link" })).toBeVisible();
  });

  test("'Back to Sign In' goes to /login, from the form and from the confirmation", async ({
    page,
    newUser: { email },
  }) => {
    await page.goto("/forgot-password");
    await waitForHydration(page);
    await page.getByRole("link", { name: "Back to Sign In" }).click();
    await expect(page).toHaveURL("/login");

    await askForResetLink(page, email);
    await page.getByRole("link", { name: "Back to Sign In" }).click();
    await expect(page).toHaveURL("/login");
  });

  test.describe(() => {
    test.use({ expectedConsoleErrors: [PASSWORD_RESET_FAILED_LOG, BAD_REQUEST_RESPONSE] });
    test("an unknown email is refused", async ({ page }) => {
      await askForResetLink(page, uniqueEmail("ghost"));
      await expectNotice(page, "Reset Failed", "No account found with this email address.");
      await expect(page.getByRole("button", { name: "Send Reset Link" })).toBeVisible();
    });
  });

  test("the emailed link opens our page, sets a new password, and it signs in", async ({
    page,
    request,
    newUser: { email },
  }) => {
    await askForResetLink(page, email);
    await expect(page.getByRole("heading", { name: "Check Your Email" })).toBeVisible();
    const code = (await oobCodes(email)).findLast(
      (c) => c.requestType === "PASSWORD_RESET",
    )!.oobCode;

    const actionUrl = `/auth/action?mode=resetPassword&oobCode=${encodeURIComponent(code)}`;
    expect((await request.get(actionUrl)).headers()["referrer-policy"]).toBe("no-referrer");
    await page.goto(actionUrl);
    await expect(page.getByRole("heading", { name: "Choose a New Password" })).toBeVisible();
    await expect(page.getByRole("main")).toContainText(email);
    await page.getByLabel("New Password", { exact: true }).fill("brand-new-pass");
    await page.getByLabel("Confirm New Password").fill("brand-new-pass");
    await page.getByRole("button", { name: "Save New Password" }).click();
    await expect(page.getByRole("heading", { name: "Password Changed" })).toBeVisible();
    await page.getByRole("link", { name: "Sign In" }).last().click();
    await expect(page).toHaveURL("/login");

    await signInThroughForm(page, email, "brand-new-pass");
    await expect(page).toHaveURL("/");
    await expect(header(page).getByRole("button", { name: "Sign Out" })).toBeVisible();
  });

  test.describe(() => {
    // The identity service refuses the code with a 400.
    test.use({ expectedConsoleErrors: [BAD_REQUEST_RESPONSE] });
    test("a used or made-up code gets a clear message and a way to ask again", async ({ page }) => {
      await page.goto("/auth/action?mode=resetPassword&oobCode=made-up-code");
      await expect(
        page.getByRole("heading", { name: /This Link (Has Expired|Is Not Valid)/ }),
      ).toBeVisible();
      await page.getByRole("link", { name: "Request a New Link" }).click();
      await expect(page).toHaveURL("/forgot-password");
    });
  });
});

test("a signed-out visitor's home page never downloads the Firebase SDK; the sign-in page does", async ({
  page,
}) => {
  const scripts: { url: string; body: string }[] = [];
  page.on("response", async (response) => {
    if (response.request().resourceType() === "script" || response.url().endsWith(".js")) {
      scripts.push({ url: response.url(), body: await response.text().catch(() => "") });
    }
  });
  await page.goto("/");
  await waitForHydration(page);
  await page.waitForLoadState("networkidle");
  await page.mouse.wheel(0, 2000);
  await page.waitForTimeout(500);
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((s) => s.body.includes("identitytoolkit")).map((s) => s.url)).toEqual([]);

  await page.getByRole("banner").getByRole("link", { name: "Sign In" }).click();
  await expect(page).toHaveURL("/login");
  await expect.poll(() => scripts.some((s) => s.body.includes("identitytoolkit"))).toBe(true);
});

test.describe("passwords as typed", () => {
  // The two wrong attempts are logged, as every failed sign-in is, and refused with a 400.
  test.use({ expectedConsoleErrors: [SIGN_IN_FAILED_LOG, BAD_REQUEST_RESPONSE] });

  test("a long passphrase with spaces and mixed case works exactly as typed (ASVS 6.2.8, 6.2.9)", async ({
    page,
  }) => {
    const email = uniqueEmail("passphrase");
    const passphrase = " Ledger Tie-Out passphrase: 2026 busy season, Schedule K-1 and more! ";
    expect(passphrase.length).toBeGreaterThanOrEqual(64);
    await page.goto("/signup");
    await waitForHydration(page);
    await submitSignUp(page, email, passphrase);
    await expect(header(page).getByRole("button", { name: "Sign Out" })).toBeVisible();
    await header(page).getByRole("button", { name: "Sign Out" }).click();
    await expect(header(page).getByRole("link", { name: "Sign In" })).toBeVisible();

    // Nothing is trimmed or folded: the same words without the spaces, or in lower case, fail.
    for (const wrong of [passphrase.trim(), passphrase.toLowerCase()]) {
      await signInThroughForm(page, email, wrong);
      await expectNotice(page, "Sign In Failed", "Incorrect password. Please try again.");
    }
    await signInThroughForm(page, email, passphrase);
    await expect(page).toHaveURL("/");
    await expect(header(page).getByRole("button", { name: "Sign Out" })).toBeVisible();
  });
});
