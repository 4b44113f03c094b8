/**
 * Double opt-in end to end (decision 023): the production build with SMTP_URL on a real
 * SMTP server on loopback. One confirmation mail per new address and none for a repeat; the links
 * in it open a page with one button and only its POST acts; a used or bad link says it no longer
 * works; the removal link and the mail client's one-click unsubscribe erase the entry.
 */
import { sql } from "drizzle-orm";
import { openDatabase, queryRows } from "#db/client.ts";
import { expect, test } from "#tests/support/fixtures.ts";
import { GONE_RESPONSE, UNPROCESSABLE_RESPONSE } from "#tests/support/console-messages.ts";
import type { RunningServer } from "#tests/support/server.ts";
import type { TestSmtp } from "#tests/support/test-smtp.ts";
import { submitToWaitlist } from "#tests/support/waitlist-db.ts";

test.describe.configure({ mode: "serial", timeout: 60_000 });
// The browser logs every 410 and 422 it loads; here they are the answers under test.
test.use({ expectedConsoleErrors: [GONE_RESPONSE, UNPROCESSABLE_RESPONSE], ownServerEnv: {} });

const post = (server: RunningServer, data: object) => submitToWaitlist(server.url, data);

const mailsTo = (smtp: TestSmtp, address: string) =>
  smtp.received.filter((mail) => mail.to.includes(address.toLowerCase()));

/** The confirmation mail to `address`, once it has arrived; its links and headers. */
async function confirmationTo(smtp: TestSmtp, address: string) {
  await expect.poll(() => mailsTo(smtp, address).length, { timeout: 15_000 }).toBe(1);
  const { parsed: mail, raw } = mailsTo(smtp, address)[0]!;
  const text = mail.text ?? "";
  const confirm = /https?:\/\/\S+\/waitlist\/confirm\?token=[\w-]+/.exec(text)?.[0];
  const remove = /https?:\/\/\S+\/waitlist\/remove\?token=[\w-]+/.exec(text)?.[0];
  expect(confirm, "the text part has the confirmation link").toBeTruthy();
  expect(remove, "the text part has the removal link").toBeTruthy();
  // As sent, unfolded (mailparser turns List-* headers into objects of its own).
  const header = (name: string) =>
    new RegExp(`^${name}:(.*(?:\\r\\n[ \\t].+)*)`, "mi")
      .exec(raw)?.[1]
      ?.replace(/\r\n[ \t]+/g, " ")
      .trim();
  return { mail, header, confirm: confirm!, remove: remove! };
}

test("a new address gets one confirmation mail; the same address in another case gets none, and the same answer", async ({
  ownServer: server,
  mailSink: smtp,
}) => {
  const first = await post(server, { name: "Olive Opt", email: "olive@example-cpa.com" });
  const again = await post(server, { name: "Olive Again", email: "OLIVE@Example-CPA.com" });
  expect(first.status).toBe(202);
  expect(again.status).toBe(202);
  expect(await again.json()).toEqual(await first.json());

  const { mail, header, confirm, remove } = await confirmationTo(smtp, "olive@example-cpa.com");
  expect(confirm.startsWith(`${server.url}/waitlist/confirm?token=`)).toBe(true);
  expect(mail.subject).toBe("Confirm your place on the Tieout waitlist");
  expect(mail.html).toContain(confirm);
  // Anyone can enter anyone's address: what they typed stays out of an unconfirmed inbox.
  expect(`${header("To")} ${mail.text} ${mail.html}`).not.toContain("Olive");
  expect(header("List-Unsubscribe")).toBe(`<${remove}>`);
  expect(header("List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
  // Long enough for the worker to have sent a second mail, had the repeat caused one.
  await new Promise((r) => setTimeout(r, 1500));
  expect(mailsTo(smtp, "olive@example-cpa.com")).toHaveLength(1);
});

test("the confirm link shows a button and changes nothing; its POST confirms; used again it no longer works", async ({
  page,
  ownServer: server,
  mailSink: smtp,
}) => {
  await post(server, { name: "Cora Confirm", email: "cora@example-cpa.com" });
  const { confirm } = await confirmationTo(smtp, "cora@example-cpa.com");

  // A mail scanner's GET, twice: the same page with the same button each time.
  for (let i = 0; i < 2; i++) {
    const opened = await fetch(confirm);
    expect(opened.status).toBe(200);
    expect(opened.headers.get("cache-control")).toBe("private, no-store");
    const html = await opened.text();
    expect(html).toContain("Confirm my address");
    expect(html).toContain("c***@example-cpa.com");
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    expect(html).toContain('<meta name="referrer" content="same-origin"/>');
  }

  await page.goto(confirm);
  await page.getByRole("button", { name: "Confirm my address" }).click();
  await expect(page.getByRole("heading", { name: "Your address is confirmed" })).toBeVisible();

  const reused = await page.goto(confirm);
  expect(reused?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: "This link no longer works" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to the waitlist" })).toBeVisible();
});

test("without JavaScript the confirm button is a plain form post", async ({
  browser,
  ownServer: server,
  mailSink: smtp,
}) => {
  await post(server, { name: "Nora NoScript", email: "nora@example-cpa.com" });
  const { confirm } = await confirmationTo(smtp, "nora@example-cpa.com");
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(confirm);
  const answer = page.waitForResponse((r) => r.request().method() === "POST");
  await page.getByRole("button", { name: "Confirm my address" }).click();
  expect((await answer).status()).toBe(200);
  await expect(page.getByRole("heading", { name: "Your address is confirmed" })).toBeVisible();
  // Pressing it again (a second tab, the back button) changes nothing more.
  const again = await page.request.post(confirm, {
    form: { token: new URL(confirm).searchParams.get("token")! },
  });
  expect(again.status()).toBe(410);
  expect(await again.text()).toContain("This link no longer works");
  await context.close();
});

test("a bad or missing token shows that the link no longer works, never a 404 or a 5xx", async ({
  page,
  ownServer: server,
}) => {
  for (const target of [
    "/waitlist/confirm?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    "/waitlist/confirm?token=not-a-token",
    "/waitlist/confirm",
    "/waitlist/remove?token=%00%ff",
  ]) {
    const response = await page.goto(`${server.url}${target}`);
    expect(response?.status(), target).toBe(200);
    await expect(page.getByRole("heading", { name: "This link no longer works" })).toBeVisible();
  }
  const forged = await fetch(`${server.url}/waitlist/remove?token=${"B".repeat(43)}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: "List-Unsubscribe=One-Click",
  });
  expect(forged.status).toBe(410);
});

test("the removal link shows a button; its POST erases the entry", async ({
  page,
  ownServer: server,
  mailSink: smtp,
}) => {
  await post(server, { name: "Remy Remove", email: "remy@example-cpa.com" });
  const { remove } = await confirmationTo(smtp, "remy@example-cpa.com");
  expect((await fetch(remove)).status).toBe(200);
  await page.goto(remove);
  await page.getByRole("button", { name: "Remove me from the waitlist" }).click();
  await expect(page.getByRole("heading", { name: "You have left the waitlist" })).toBeVisible();
  await page.goto(remove);
  await expect(page.getByRole("heading", { name: "This link no longer works" })).toBeVisible();
});

test("a mail client's one-click unsubscribe (RFC 8058: a POST without cookies or Origin) erases the entry", async ({
  ownServer: server,
  mailSink: smtp,
}) => {
  await post(server, { name: "Una Unsub", email: "una@example-cpa.com" });
  const { header } = await confirmationTo(smtp, "una@example-cpa.com");
  const target = /^<(.+)>$/.exec(header("List-Unsubscribe") ?? "")?.[1];
  const answer = await fetch(target!, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: "List-Unsubscribe=One-Click",
    redirect: "manual",
  });
  expect(answer.status).toBe(200);
  expect(await answer.text()).toContain("You have left the waitlist");

  // RFC 8058 prefers multipart/form-data; some clients send no body at all. Both act.
  const multipart = new FormData();
  multipart.set("List-Unsubscribe", "One-Click");
  for (const [email, body] of [
    ["uma@example-cpa.com", multipart],
    ["ugo@example-cpa.com", undefined],
  ] as const) {
    await post(server, { name: "Una Unsub", email });
    const { header: headerOf } = await confirmationTo(smtp, email);
    const link = /^<(.+)>$/.exec(headerOf("List-Unsubscribe") ?? "")?.[1];
    const done = await fetch(link!, { method: "POST", body, redirect: "manual" });
    expect(done.status, email).toBe(200);
    expect(await done.text()).toContain("You have left the waitlist");
  }
});

test("a throwaway address is refused with a field error, and gets no mail", async ({
  page,
  ownServer: server,
  mailSink: smtp,
}) => {
  const refused = await post(server, { name: "Tom Throwaway", email: "tom@mailinator.com" });
  expect(refused.status).toBe(422);
  expect(((await refused.json()) as { errors: { email?: string } }).errors.email).toMatch(
    /throwaway addresses/,
  );
  await page.goto(`${server.url}/waitlist`);
  await page.getByLabel("Full Name").fill("Tom Throwaway");
  await page.getByLabel("Email").fill("tom@mailinator.com");
  await page.getByRole("button", { name: /join|request/i }).click();
  await expect(page.getByText(/throwaway addresses can't receive our invitation/)).toBeVisible();
  expect(mailsTo(smtp, "tom@mailinator.com")).toHaveLength(0);
});

test("in the database: confirmed and waiting entries as pressed; removed entries erased with their tokens and outbox rows", async ({
  ownServer: server,
}) => {
  expect(await server.stop()).toBe(0);
  const database = await openDatabase({ dataDir: server.dataDir, databaseUrl: undefined });
  try {
    const entries = await queryRows<{ email: string; state: string; confirmed: boolean }>(
      database.db,
      sql`SELECT lower(email) AS email, state, confirmed_at IS NOT NULL AS confirmed FROM waitlist_entries ORDER BY id`,
    );
    expect(entries).toEqual([
      { email: "olive@example-cpa.com", state: "waiting", confirmed: false },
      { email: "cora@example-cpa.com", state: "confirmed", confirmed: true },
      { email: "nora@example-cpa.com", state: "confirmed", confirmed: true },
    ]);
    const outbox = await queryRows<{ payload: string }>(
      database.db,
      sql`SELECT payload::text AS payload FROM outbox`,
    );
    expect(outbox).toHaveLength(3);
    expect(outbox.some((row) => /remy|una@/i.test(row.payload))).toBe(false);
    const tokens = await queryRows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM waitlist_tokens`,
    );
    expect(Number(tokens[0]?.n)).toBe(6);
  } finally {
    await database.close();
  }
});
