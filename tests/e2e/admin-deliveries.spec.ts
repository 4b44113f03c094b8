/**
 * The admin's deliveries page end to end (decision 022): the production build with SMTP_URL on a
 * real SMTP server on loopback that refuses every message for good (550), as a relay does for a
 * mailbox that does not exist. The administrator finds the failed confirmation mail, its
 * recipient and the relay's reason, from the waitlist page.
 */
import { signInBrowserVerified, signOut } from "#tests/support/accounts.ts";
import { adminMailsSettled } from "#tests/support/admin-passkey.ts";
import { E2E_ADMIN_EMAIL } from "#tests/support/e2e-env.ts";
import { uniqueEmail } from "#tests/support/emulator.ts";
import { axeViolations, expect, test } from "#tests/support/fixtures.ts";
import { submitToWaitlist } from "#tests/support/waitlist-db.ts";

test.use({ ownServerEnv: { ADMIN_EMAILS: E2E_ADMIN_EMAIL } });

test("a mail the relay refuses for good shows on the deliveries page with the relay's reason", async ({
  admin,
  context,
  page,
  ownServer: server,
  mailSink: smtp,
}) => {
  // The administrator signs in first: their passkey's code and notice go through the relay too.
  const { cookie } = await signInBrowserVerified(context, server, admin);
  const adminMails = await adminMailsSettled(smtp, admin.email);
  try {
    // From now on the relay refuses every message for good (550).
    const before = smtp.offered();
    smtp.answer((n) => (n >= before ? "permanent" : "accept"));
    const address = uniqueEmail("refused");
    const joined = await submitToWaitlist(server.url, { name: "Rita Refused", email: address });
    expect(joined.status).toBe(202);
    await expect.poll(() => smtp.offered(), { timeout: 15_000 }).toBe(before + 1);

    // The relay has answered; the worker records the outcome a moment later.
    await expect
      .poll(
        async () => (await fetch(`${server.url}/admin/deliveries`, { headers: { cookie } })).text(),
        { timeout: 10_000 },
      )
      .toContain("Mailbox unavailable");

    await page.goto(`${server.url}/admin/waitlist`);
    await page.getByRole("link", { name: "Deliveries" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Deliveries" })).toBeVisible();
    const states = page.getByRole("list", { name: "Messages by state" }).getByRole("listitem");
    await expect(states).toHaveText(["1 failed", "0 waiting to be sent", `${adminMails} sent`]);

    const failed = page.getByRole("region", { name: "Failed deliveries" });
    const row = failed.getByRole("row").filter({ hasText: address });
    await expect(row).toHaveCount(1);
    await expect(row.getByRole("cell").nth(0)).toHaveText("Email");
    await expect(row.getByRole("cell").nth(2)).toHaveText("1");
    await expect(row.getByRole("cell").last()).toContainText("550");
    await expect(row.getByRole("cell").last()).toContainText("Mailbox unavailable");
    await expect(
      page.getByRole("region", { name: "Messages waiting to be sent" }).getByRole("cell"),
    ).toHaveText(["Nothing is waiting to be sent."]);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole("link", { name: "Entries" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Waitlist" })).toBeVisible();
  } finally {
    await signOut(server.url, cookie);
  }
});
