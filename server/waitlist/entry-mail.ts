/**
 * A mail to a waitlist entry, ready for the outbox (decisions 022, 023): rendered now, addressed
 * to the entry, with a fresh removal link (every waitlist mail has one) that is also the mail
 * client's one-click unsubscribe (RFC 2369, RFC 8058). The links are built from SITE_URL, never
 * from the request that caused the mail.
 */
import type { Env } from "#server/env.ts";
import type { MailCategory } from "#server/mail/suppression-policy.ts";
import type { WaitlistFooterLinks } from "#server/mail/templates/waitlist-footer.tsx";
import type { OutboxMessage } from "#server/outbox/outbox.ts";
import { newToken, tokenRow, type TokenRow } from "#server/waitlist/tokens.ts";

/** A link to a page of the site, for a mail. */
export const siteLink = (env: Env, pathAndQuery: string) => `${env.siteUrl}${pathAndQuery}`;

type Rendered = { subject: string; html: string; text: string };

/**
 * The outbox message for a mail to `entry` under `key`; `render` receives the footer's links. The
 * removal token's row is pushed onto `tokens`, to be stored in the same transaction.
 */
export function mailToEntry(
  env: Env,
  /** Without a name, the mail goes to the bare address. */
  entry: { id: number; name?: string; email: string },
  key: string,
  /** `requested` for the confirmation of a form just sent; `notice` for what an admin did. */
  category: MailCategory,
  render: (footer: WaitlistFooterLinks) => Rendered,
  tokens: TokenRow[],
): OutboxMessage {
  const remove = newToken();
  tokens.push(tokenRow(entry.id, "remove", remove));
  const removeUrl = siteLink(env, `/waitlist/remove?token=${remove}`);
  return {
    key,
    channel: "email",
    email: {
      category,
      from: env.mail.from,
      to: { name: entry.name, address: entry.email },
      ...render({ removeUrl, siteUrl: env.siteUrl }),
      headers: {
        "List-Unsubscribe": `<${removeUrl}>`,
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      },
    },
  };
}
