/**
 * One error boundary that answers by status (decision 012). A page the visitor may not see
 * says so (not "something went wrong on our side"), for a page load and for a client-side
 * navigation's data request alike. The 5xx apology with its request id is checked in
 * hostile-sessions.spec.ts, where Firebase is made unreachable.
 */
import { FORBIDDEN_RESPONSE } from "#tests/support/console-messages.ts";
import { expect, test } from "#tests/support/fixtures.ts";

test.use({ expectedConsoleErrors: [FORBIDDEN_RESPONSE] });

test("a signed-in visitor who is not an administrator is told the admin page is not for them", async ({
  signedInUser: _signedIn,
  page,
}) => {
  const response = await page.goto("/admin/waitlist");
  expect(response?.status()).toBe(403);
  await expect(page).toHaveTitle("Not allowed | Tieout");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("You may not see this page");
  await expect(page.getByText("This account may not see the waitlist.")).toBeVisible();
  await expect(page.getByText("went wrong on our side")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Sign in with another account" })).toHaveAttribute(
    "href",
    "/login",
  );

  // The data request behind a client-side navigation carries the same status and sentence.
  const data = await page.request.get("/admin/waitlist.data");
  expect(data.status()).toBe(403);
  expect(await data.text()).toContain("This account may not see the waitlist.");
});

test("a form posted to a page that takes none is refused in the visitor's words, not the router's", async ({
  request,
}) => {
  for (const target of ["/security", "/no-such-page"]) {
    const answer = await request.post(target, { form: { a: "1" } });
    expect(answer.status(), target).toBe(405);
    // What the visitor reads: the page's main content (the router's own data for hydration
    // carries its developer's sentence, which nothing shows).
    const main = /<main[\s\S]*<\/main>/.exec(await answer.text())?.[0] ?? "";
    expect(main).toContain("The address or the form sent was not one this page can answer.");
    expect(main).not.toContain("did not provide an");
    expect(main).not.toContain("routes/");
  }
});
