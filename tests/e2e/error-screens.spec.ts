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
