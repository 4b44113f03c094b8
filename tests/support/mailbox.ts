/**
 * Reading what a test SMTP server (test-smtp.ts) received, as a person reads their inbox: the
 * mails to an address, and the links in them.
 */
import { expect } from "@playwright/test";
import type { TestSmtp } from "#tests/support/test-smtp.ts";
import { submitToWaitlist } from "#tests/support/waitlist-db.ts";

export type Mail = { subject: string; text: string };

/** The mails received for `address`, oldest first. */
export function mailsTo(smtp: TestSmtp, address: string): Mail[] {
  return smtp.received
    .filter((mail) => mail.to.includes(address.toLowerCase()))
    .map((mail) => ({ subject: mail.parsed.subject ?? "", text: mail.parsed.text ?? "" }));
}

/** Waits until `count` mails for `address` have arrived; resolves with them. */
export async function waitForMails(smtp: TestSmtp, address: string, count: number) {
  await expect
    .poll(() => mailsTo(smtp, address).length, { timeout: 20_000 })
    .toBeGreaterThanOrEqual(count);
  return mailsTo(smtp, address);
}

/** The first link in a mail's text to a path of the site (`/signup?invite=`, …). */
export function linkIn(mail: Mail, path: string): string {
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const link = new RegExp(`https?://\\S+${escaped}[\\w=&-]*`).exec(mail.text)?.[0];
  expect(link, `a link to ${path} in "${mail.subject}"`).toBeTruthy();
  return link!;
}

/**
 * A lead who joined the waitlist on `serverUrl` and pressed the button behind the confirmation
 * mail's link, as its owner would. Returns the link to its qualifying questions.
 */
export async function confirmedLead(
  serverUrl: string,
  smtp: TestSmtp,
  lead: { name: string; email: string; company?: string },
): Promise<string> {
  expect((await submitToWaitlist(serverUrl, lead)).status).toBe(202);
  const [mail] = await waitForMails(smtp, lead.email, 1);
  const confirm = linkIn(mail!, "/waitlist/confirm?token=");
  const pressed = await fetch(confirm, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token: new URL(confirm).searchParams.get("token")! }).toString(),
  });
  expect(pressed.status).toBe(200);
  // The page that says so offers the qualifying questions: their form carries the answers link's
  // token (decision 043).
  const page = await pressed.text();
  const [, token] =
    /action="\/waitlist\/answers"[^>]*>\s*<input type="hidden" name="token" value="([^"]+)"/.exec(
      page,
    ) ?? [];
  expect(token, "the questions' form after confirming").toBeTruthy();
  return `${serverUrl}/waitlist/answers?token=${token}`;
}
