/**
 * The main e2e server's local inbox (server/mail/catcher.ts) as a test reads it: its list page and
 * each message's page, whose text it escapes.
 */
import { expect } from "@playwright/test";
import { E2E_INBOX_URL } from "#tests/support/e2e-env.ts";

const unescapeHtml = (html: string) =>
  html
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");

/** The list's To cell of an address, alone or as `Name <address>`. */
const mailbox = (address: string) =>
  new RegExp(
    `(?:<td>|&lt;)${address.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?:</td>|&gt;)`,
  );

/** The subjects of the mails the inbox holds for an address, newest first. */
export async function inboxSubjects(address: string): Promise<string[]> {
  const html = await (await fetch(E2E_INBOX_URL)).text();
  return html
    .split("<tr>")
    .filter((row) => mailbox(address).test(row))
    .map((row) => unescapeHtml(/<a href="\/messages\/[^"]+">([^<]*)<\/a>/.exec(row)?.[1] ?? ""));
}

/**
 * The newest mail to `address` whose subject is `subject`, once it has arrived: its text part and
 * the whole message as sent, headers and all.
 */
export async function inboxMail(
  address: string,
  subject: string,
): Promise<{ text: string; raw: string }> {
  let href: string | undefined;
  await expect
    .poll(
      async () => {
        const html = await (await fetch(E2E_INBOX_URL)).text();
        const row = html
          .split("<tr>")
          .find((r) => mailbox(address).test(r) && r.includes(`">${subject}</a>`));
        href = row ? /<a href="(\/messages\/[^"]+)">/.exec(row)?.[1] : undefined;
        return href !== undefined;
      },
      { timeout: 20_000, message: `a mail "${subject}" to ${address}` },
    )
    .toBe(true);
  const page = await (await fetch(`${E2E_INBOX_URL}${href}`)).text();
  return {
    text: unescapeHtml(/<h2>Text<\/h2><pre>([\s\S]*?)<\/pre>/.exec(page)?.[1] ?? ""),
    raw: unescapeHtml(/<h2>Raw message<\/h2><pre>([\s\S]*?)<\/pre>/.exec(page)?.[1] ?? ""),
  };
}
