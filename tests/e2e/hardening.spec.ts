/**
 * Requests from other sites, and clients that are too big or too slow (decision 008). The
 * cross-site tests use a real page on another origin (127.0.0.1 is another site than localhost),
 * so the browser sends exactly what it would send for an attacker.
 */
import { createServer, request as httpRequest, type Server } from "node:http";
import { connect } from "node:net";
import type { AddressInfo } from "node:net";
import { adminExportToken, MAIN_SERVER, signIn } from "#tests/support/accounts.ts";
import { uniqueEmail } from "#tests/support/emulator.ts";
import { BASE_URL } from "#tests/support/e2e-env.ts";
import { expect, test, waitForHydration } from "#tests/support/fixtures.ts";
import { FORBIDDEN_RESPONSE, OFFLINE_REQUEST } from "#tests/support/console-messages.ts";

/** A page on another site, serving the given HTML. */
async function otherSite(html: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

test.describe("requests from another site", () => {
  // The browser reports the refused request in the console: that is the expected outcome here.
  test.use({ expectedConsoleErrors: [FORBIDDEN_RESPONSE] });

  test("a form posted from another site to the waitlist is refused and stores nothing", async ({
    page,
    request,
  }) => {
    const email = uniqueEmail("cross-site");
    const attacker = await otherSite(`<!doctype html><title>Win a prize</title>
      <form method="post" action="${BASE_URL}/waitlist">
        <input name="name" value="Forged Lead"><input name="email" value="${email}">
        <button>Claim</button>
      </form>`);
    try {
      await page.goto(attacker.url);
      const answer = page.waitForResponse(`${BASE_URL}/waitlist`);
      await page.getByRole("button", { name: "Claim" }).click();
      expect((await answer).status()).toBe(403);
      await expect(
        page.getByRole("heading", { name: "This form came from another site" }),
      ).toBeVisible();
      await expect(page.getByText("nothing was sent or saved")).toBeVisible();
    } finally {
      attacker.server.close();
    }
    // Both answers are 202 now (decision 023): the export shows whether the forged post was stored.
    const csv = await request.get("/api/admin/waitlist.csv", {
      headers: {
        Authorization: `Bearer ${await adminExportToken(MAIN_SERVER)}`,
      },
    });
    expect(csv.status()).toBe(200);
    expect((await csv.text()).toLowerCase()).not.toContain(email.toLowerCase());
  });

  test("a signed-in administrator's cookie opens no export from another site's link", async ({
    signedInAdmin: _signedIn,
    page,
  }) => {
    // The session cookie works from our own site.
    const own = await page.request.get("/api/admin/waitlist.csv", {
      headers: { "Sec-Fetch-Site": "same-origin" },
    });
    expect(own.status()).toBe(200);

    const attacker = await otherSite(`<!doctype html><title>Invoice</title>
      <a href="${BASE_URL}/api/admin/waitlist.csv">Open invoice</a>`);
    try {
      await page.goto(attacker.url);
      const answer = page.waitForResponse(`${BASE_URL}/api/admin/waitlist.csv`);
      await page.getByRole("link", { name: "Open invoice" }).click();
      const response = await answer;
      expect(response.status()).toBe(403);
      expect(await response.text()).toContain("Open this from the admin pages of the site.");
    } finally {
      attacker.server.close();
    }
  });
});

test.describe("an unkind network", () => {
  test.use({ expectedConsoleErrors: [OFFLINE_REQUEST] });

  test("a lead typed while offline is kept on screen, said to have failed, and sent on retry", async ({
    page,
    request,
  }) => {
    const email = uniqueEmail("offline");
    await page.goto("/waitlist");
    await waitForHydration(page);
    await page.getByLabel("Full Name").fill("Riley Offline");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Company (Optional)").fill("Train & Tunnel CPAs");

    await page.context().setOffline(true);
    await page.getByRole("button", { name: "Join Waitlist" }).click();
    await expect(
      page.getByText("There was an error submitting your request. Please try again.", {
        exact: true,
      }),
    ).toBeVisible();
    // Nothing typed is lost.
    await expect(page.getByLabel("Full Name")).toHaveValue("Riley Offline");
    await expect(page.getByLabel("Email")).toHaveValue(email);
    await expect(page.getByLabel("Company (Optional)")).toHaveValue("Train & Tunnel CPAs");

    await page.context().setOffline(false);
    await page.getByRole("button", { name: "Join Waitlist" }).click();
    await expect(page.getByRole("heading", { name: "You're on the list!" })).toBeVisible();
    // Stored once, as the export shows (a repeat answers 202 like a new address, decision 023).
    const csv = await request.get("/api/admin/waitlist.csv", {
      headers: {
        Authorization: `Bearer ${await adminExportToken(MAIN_SERVER)}`,
      },
    });
    const rows = (await csv.text()).split("\r\n");
    expect(rows.filter((row) => row.toLowerCase().includes(email.toLowerCase()))).toHaveLength(1);
  });
});

test.describe("sessions", () => {
  test("signing out ends the session for good: a copy of the cookie opens nothing afterwards", async ({
    request,
    admin,
  }) => {
    // The account page: 200 for a live session, the sign-in page for any other cookie.
    const accountWith = async (cookie: string) =>
      (await request.get("/account", { headers: { Cookie: cookie }, maxRedirects: 0 })).status();
    const headerWith = async (cookie: string) =>
      (await (await request.get("/contact", { headers: { Cookie: cookie } })).text()).includes(
        ">Sign In<",
      )
        ? "signed out"
        : "signed in";

    const { cookie: copied } = await signIn(BASE_URL, admin);
    expect(await accountWith(copied)).toBe(200);
    expect(await headerWith(copied)).toBe("signed in");
    const signOut = await request.delete("/api/session", { headers: { Cookie: copied } });
    expect(signOut.status()).toBe(204);
    expect(await accountWith(copied)).toBe(302);
    expect(await headerWith(copied)).toBe("signed out");

    // Signing in again replaces the browser's session: the cookie it had before is void.
    const { cookie: first } = await signIn(BASE_URL, admin);
    const { cookie: second } = await signIn(BASE_URL, admin, { replacing: first });
    expect(await accountWith(first)).toBe(302);
    expect(await accountWith(second)).toBe(200);
    // The administrator is shared with other tests: leave no session of theirs behind.
    expect((await request.delete("/api/session", { headers: { Cookie: second } })).status()).toBe(
      204,
    );
  });
});

test.describe("clients that are too big or too slow", () => {
  test("headers over 16 KB are refused with 431", async () => {
    const response = await fetch(`${BASE_URL}/`, { headers: { "X-Padding": "a".repeat(20_000) } });
    expect(response.status).toBe(431);
  });

  test("a body over 16 KB is refused with 413 and a message", async ({ request }) => {
    const email = uniqueEmail("too-big");
    const response = await request.post("/api/waitlist", {
      data: { name: "Big Lead", email, message: "x".repeat(20_000) },
    });
    expect(response.status()).toBe(413);
    expect(await response.json()).toEqual({ ok: false, message: "The request is too large." });
    expect((await request.post("/api/waitlist", { data: { name: "Big", email } })).status()).toBe(
      202,
    );
  });

  test("TRACE is not answered with the request (no cross-site tracing)", async () => {
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        `${BASE_URL}/`,
        { method: "TRACE", headers: { Cookie: "tieout_session=trace-me" } },
        (res) => {
          let body = "";
          res.on("data", (chunk: Buffer) => (body += chunk.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on("error", reject);
      req.end();
    });
    expect([404, 405]).toContain(answer.status);
    expect(answer.body).not.toContain("trace-me");
  });

  test("a client that never finishes its headers is disconnected", async () => {
    const socket = connect(Number(new URL(BASE_URL).port), "127.0.0.1");
    let received = "";
    socket.on("data", (chunk: Buffer) => (received += chunk.toString()));
    const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    await new Promise((resolve) => socket.once("connect", resolve));
    // A slow-loris client: a request line and one header, then nothing more, ever.
    socket.write("GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: 1\r\n");
    await closed;
    // Node answers 408 before it hangs up; either way the connection is gone.
    expect(received === "" || received.startsWith("HTTP/1.1 408")).toBe(true);
  });
});
