/**
 * Email notice of sub-processor changes end to end (decision 025), with SMTP_URL on a real SMTP
 * server on loopback. Subscribing is double opt-in: one confirmation mail per new address, links
 * whose GET changes nothing and whose POST acts. A change an operator adds to
 * src/content/subprocessors.ts is built and deployed as an operator would (a copy of this checkout,
 * built by scripts/build.mjs), and reaches each confirmed subscriber once, however often the site
 * restarts; the build refuses a change with less than the DPA's 30 days' notice.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { formatDate, type IsoDate } from "#src/content/dates.ts";
import { copyCheckout } from "#tests/support/checkout-copy.ts";
import { GONE_RESPONSE, UNPROCESSABLE_RESPONSE } from "#tests/support/console-messages.ts";
import { expect, test } from "#tests/support/fixtures.ts";
import type { TestSmtp } from "#tests/support/test-smtp.ts";

test.describe.configure({ mode: "serial", timeout: 60_000 });
// The browser logs every 410 and 422 it loads; here they are the answers under test.
test.use({ expectedConsoleErrors: [GONE_RESPONSE, UNPROCESSABLE_RESPONSE], ownServerEnv: {} });

const mailsTo = (smtp: TestSmtp, address: string) =>
  smtp.received.filter((mail) => mail.to.includes(address.toLowerCase()));

/** A mail as received: its parsed form, a header as sent (unfolded), and its links by path. */
function read(received: TestSmtp["received"][number]) {
  const text = received.parsed.text ?? "";
  const link = (page: "confirm" | "unsubscribe") =>
    new RegExp(`https?://\\S+/subprocessors/${page}\\?token=[\\w-]+`).exec(text)?.[0];
  const header = (name: string) =>
    new RegExp(`^${name}:(.*(?:\\r\\n[ \\t].+)*)`, "mi")
      .exec(received.raw)?.[1]
      ?.replace(/\r\n[ \t]+/g, " ")
      .trim();
  return { mail: received.parsed, text, header, link };
}

/** The mails to `address` whose subject starts with `subject`, once `count` of them arrived. */
async function mails(smtp: TestSmtp, address: string, subject: string, count: number) {
  const matching = () =>
    mailsTo(smtp, address).filter((m) => (m.parsed.subject ?? "").startsWith(subject));
  await expect.poll(() => matching().length, { timeout: 15_000 }).toBe(count);
  return matching().map(read);
}

const CONFIRMATION = "Confirm your subscription to Tieout's sub-processor changes";
const NOTICE = "Tieout sub-processor change";

/** The subscription form as a browser without JavaScript posts it. */
const postSubscription = (base: string, email: string) =>
  fetch(`${base}/subprocessors`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email }),
  });

/** Subscribes `email` on `base` and presses the button behind its confirmation link. */
async function subscribeAndConfirm(smtp: TestSmtp, base: string, email: string) {
  expect((await postSubscription(base, email)).status).toBe(202);
  const [confirmation] = await mails(smtp, email, CONFIRMATION, 1);
  const confirm = confirmation!.link("confirm")!;
  const answer = await fetch(confirm, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token: new URL(confirm).searchParams.get("token")! }),
  });
  expect(await answer.text()).toContain("Your subscription is confirmed");
}

const todayUtc = () => new Date().toISOString().slice(0, 10) as IsoDate;
const daysAfter = (date: IsoDate, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000)
    .toISOString()
    .slice(0, 10) as IsoDate;

/** Adds a change to the copy's sub-processor list, as an operator writes one. */
const addChange = (published: IsoDate, effective: IsoDate) => (source: string) =>
  source.replace(
    /(export const SUBPROCESSOR_CHANGES: readonly SubprocessorChange\[\] = \[)/,
    `$1
  {
    id: "email-through-ses",
    published: "${published}",
    effective: "${effective}",
    summary: "We will send the site's email through Amazon Simple Email Service.",
    adds: "amazon-ses",
  },`,
  );

test("subscribing sends one confirmation mail; the same address again gets the same answer and no mail", async ({
  page,
  ownServer: server,
  mailSink: smtp,
}) => {
  await page.goto(`${server.url}/subprocessors`);
  await page.getByLabel("Email address").fill("faye@example-cpa.com");
  await page.getByRole("button", { name: "Subscribe to changes" }).click();
  await expect(page.getByRole("status")).toContainText("Check your inbox");

  await page.goto(`${server.url}/subprocessors`);
  await page.getByLabel("Email address").fill("FAYE@Example-CPA.com");
  await page.getByRole("button", { name: "Subscribe to changes" }).click();
  await expect(page.getByRole("status")).toContainText("Check your inbox");

  const [confirmation] = await mails(smtp, "faye@example-cpa.com", CONFIRMATION, 1);
  const unsubscribe = confirmation!.link("unsubscribe");
  expect(confirmation!.link("confirm")).toMatch(
    new RegExp(`^${server.url}/subprocessors/confirm\\?token=`),
  );
  expect(confirmation!.header("List-Unsubscribe")).toBe(`<${unsubscribe}>`);
  expect(confirmation!.header("List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
  expect(confirmation!.mail.html).toContain(unsubscribe);
  // Long enough for the worker to have sent a second mail, had the repeat caused one.
  await new Promise((r) => setTimeout(r, 1500));
  expect(mailsTo(smtp, "faye@example-cpa.com")).toHaveLength(1);
});

test("the confirm link shows a button and changes nothing; its POST confirms; used again it no longer works", async ({
  page,
  ownServer: server,
  mailSink: smtp,
}) => {
  expect((await postSubscription(server.url, "gil@example-cpa.com")).status).toBe(202);
  const [confirmation] = await mails(smtp, "gil@example-cpa.com", CONFIRMATION, 1);
  const confirm = confirmation!.link("confirm")!;

  // A mail scanner's GET, three times: the same page with the same button each time.
  for (let i = 0; i < 3; i++) {
    const opened = await fetch(confirm);
    expect(opened.status).toBe(200);
    expect(opened.headers.get("cache-control")).toBe("private, no-store");
    const html = await opened.text();
    expect(html).toContain("Confirm my subscription");
    expect(html).toContain("g***@example-cpa.com");
    expect(html).toContain('<meta name="robots" content="noindex"/>');
  }

  await page.goto(confirm);
  await page.getByRole("button", { name: "Confirm my subscription" }).click();
  await expect(page.getByRole("heading", { name: "Your subscription is confirmed" })).toBeVisible();
  const reused = await page.goto(confirm);
  expect(reused?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: "This link no longer works" })).toBeVisible();
  await expect(page.getByRole("link", { name: "See the sub-processor list" })).toBeVisible();
});

test("without JavaScript, subscribing and confirming are plain form posts; a throwaway address is refused at the field", async ({
  browser,
  ownServer: server,
  mailSink: smtp,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${server.url}/subprocessors`);
  await page.getByLabel("Email address").fill("tom@mailinator.com");
  await page.getByRole("button", { name: "Subscribe to changes" }).click();
  const field = page.getByLabel("Email address");
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("throwaway addresses cannot receive our notices")).toBeVisible();
  await expect(field).toHaveValue("tom@mailinator.com");

  await field.fill("hal@example-cpa.com");
  await page.getByRole("button", { name: "Subscribe to changes" }).click();
  await expect(page.getByRole("status")).toContainText("Check your inbox");
  const [confirmation] = await mails(smtp, "hal@example-cpa.com", CONFIRMATION, 1);
  await page.goto(confirmation!.link("confirm")!);
  await page.getByRole("button", { name: "Confirm my subscription" }).click();
  await expect(page.getByRole("heading", { name: "Your subscription is confirmed" })).toBeVisible();
  expect(mailsTo(smtp, "tom@mailinator.com")).toHaveLength(0);
  await context.close();
});

test("a mail client's one-click unsubscribe (RFC 8058) erases the subscription, and its links stop working", async ({
  page,
  ownServer: server,
  mailSink: smtp,
}) => {
  expect((await postSubscription(server.url, "ivy@example-cpa.com")).status).toBe(202);
  const [confirmation] = await mails(smtp, "ivy@example-cpa.com", CONFIRMATION, 1);
  const target = /^<(.+)>$/.exec(confirmation!.header("List-Unsubscribe") ?? "")?.[1];
  const answer = await fetch(target!, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: "List-Unsubscribe=One-Click",
  });
  expect(answer.status).toBe(200);
  expect(await answer.text()).toContain("You are unsubscribed");
  await page.goto(confirmation!.link("confirm")!);
  await expect(page.getByRole("heading", { name: "This link no longer works" })).toBeVisible();
});

test("a change published by a deploy reaches each confirmed subscriber once, with one-click unsubscribe, however often the site restarts", async ({
  page,
  ownServer: server,
  mailSink: smtp,
}) => {
  test.setTimeout(240_000);
  await subscribeAndConfirm(smtp, server.url, "jo@example-cpa.com");
  expect(await server.stop()).toBe(0);

  // The operator adds a change with today's date and 30 days' notice, builds and deploys.
  const published = todayUtc();
  const effective = daysAfter(published, 30);
  const copy = copyCheckout();
  try {
    copy.edit("src/content/subprocessors.ts", addChange(published, effective));
    const built = await copy.build();
    expect(built.code, built.output).toBe(0);
    await server.restart({ root: copy.root });
    const deployed = server;

    // Start-up tells the subscriber who confirmed before the deploy; confirming now tells at once.
    await subscribeAndConfirm(smtp, deployed.url, "kim@example-cpa.com");
    for (const address of ["jo@example-cpa.com", "kim@example-cpa.com"]) {
      const [notice] = await mails(smtp, address, NOTICE, 1);
      expect(notice!.mail.subject).toBe(`${NOTICE}, effective ${formatDate(effective)}`);
      expect(notice!.text).toContain(
        "We will send the site's email through Amazon Simple Email Service.",
      );
      expect(notice!.text).toContain(
        `Published ${formatDate(published)}. Takes effect ${formatDate(effective)}.`,
      );
      expect(notice!.text).toContain("within 15 days of this notice");
      expect(notice!.header("List-Unsubscribe")).toBe(`<${notice!.link("unsubscribe")}>`);
      expect(notice!.header("List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    }

    // The deployed page and feed show the change with its dates.
    await page.goto(`${deployed.url}/subprocessors`);
    const change = page.locator("#change-email-through-ses");
    await expect(change).toContainText(
      `Published ${formatDate(published)}; takes effect ${formatDate(effective)}.`,
    );
    await expect(page.getByRole("rowheader", { name: /Amazon Web Services, Inc\./ })).toContainText(
      `From ${formatDate(effective)}`,
    );
    const feed = await (await fetch(`${deployed.url}/subprocessors/feed.atom`)).text();
    expect(feed).toContain(`<id>${deployed.url}/subprocessors#change-email-through-ses</id>`);

    // Two more starts, as after a crash or with several instances: nobody is told twice.
    for (let start = 0; start < 2; start++) {
      expect(await deployed.stop()).toBe(0);
      await deployed.restart({ root: copy.root });
    }
    await new Promise((r) => setTimeout(r, 2000));
    for (const address of ["jo@example-cpa.com", "kim@example-cpa.com"])
      await mails(smtp, address, NOTICE, 1);

    // The notice's own unsubscribe link: a page with a button, and its POST erases.
    const [notice] = await mails(smtp, "jo@example-cpa.com", NOTICE, 1);
    // Sent by the first start, whose port this one does not share: the same path here.
    const sent = new URL(notice!.link("unsubscribe")!);
    const unsubscribe = `${deployed.url}${sent.pathname}${sent.search}`;
    await page.goto(unsubscribe);
    await page.getByRole("button", { name: "Unsubscribe" }).click();
    await expect(page.getByRole("heading", { name: "You are unsubscribed" })).toBeVisible();
    await deployed.stop();
  } finally {
    copy.remove();
  }
});

test("the build refuses a change that takes effect less than 30 days after its publication", async () => {
  const copy = copyCheckout();
  try {
    const published = todayUtc();
    copy.edit("src/content/subprocessors.ts", addChange(published, daysAfter(published, 29)));
    const built = await copy.build();
    expect(built.code).toBe(1);
    expect(built.output).toContain(
      'Sub-processor change "email-through-ses" takes effect 29 days after its publication',
    );
    expect(built.output).toContain("the DPA promises at least 30 days' notice");
    expect(existsSync(path.join(copy.root, "build"))).toBe(false);
  } finally {
    copy.remove();
  }
});
