/**
 * A broadcast to the waitlist (decision 041): the operator's subject as the mail's title, their
 * Markdown body (parsed once by server/mail/markdown.ts, so both parts say the same), and a
 * footer that says why this kind of news comes, how to stop it, and how to leave the list. Every
 * recipient of a kind gets the same footer; only the greeting and the links are theirs.
 */
import type { BROADCAST_KINDS } from "#db/schema.ts";
import { SITE } from "#src/content/site.ts";
import { MarkdownHtml, markdownText, type MarkdownBlock } from "#server/mail/markdown.ts";
import {
  MAIL_COLORS,
  MailFooter,
  MailText,
  renderMailHtml,
  textFooter,
} from "#server/mail/templates/layout.tsx";

type BroadcastKind = (typeof BROADCAST_KINDS)[number];

export type BroadcastMail = {
  /** Used as given: the caller has refused line breaks in it. */
  subject: string;
  blocks: readonly MarkdownBlock[];
  kind: BroadcastKind;
  /** No greeting when unknown. */
  name: string | undefined;
  /** Stops this kind of broadcast; the entry stays on the waitlist. */
  unsubscribeUrl: string;
  /** Removes the entry from the waitlist. */
  removeUrl: string;
  /**
   * Opens the qualifying questions (decision 043): waitlist news to an entry that may answer them
   * carries it; other mail does not.
   */
  answersUrl?: string | undefined;
  siteUrl: string;
};

/**
 * Why the mail came, as the sentence before a site address and the one after it (the HTML part
 * links the address, the text part writes it out), and the label of the kind's unsubscribe link.
 */
const FOOTERS: Record<
  BroadcastKind,
  { before: string; place: (siteUrl: string) => string; unsubscribe: string }
> = {
  "waitlist-news": {
    before: `You receive this mail, news about the ${SITE.name} beta and your place in it, because this address is on the waitlist at `,
    place: (siteUrl) => `${siteUrl}/waitlist`,
    unsubscribe: "Unsubscribe from waitlist news",
  },
  "product-news": {
    before: `You receive this mail, ${SITE.name} product news, because you asked for it at `,
    place: (siteUrl) => siteUrl,
    unsubscribe: "Unsubscribe from product news",
  },
};

// consent.ts: stopping a kind of news never removes the entry. Said, so no one leaves the list by
// mistake when they only wanted fewer mails.
const KEEPS_PLACE = "Unsubscribing keeps your place on the waitlist.";
const REMOVE = "Remove me from the waitlist";
const ANSWERS = "Tell us about your firm, or change your answers";

function BroadcastFooter({ kind, siteUrl, unsubscribeUrl, removeUrl, answersUrl }: BroadcastMail) {
  const footer = FOOTERS[kind];
  const place = footer.place(siteUrl);
  const link = { color: MAIL_COLORS.soft };
  return (
    <MailFooter>
      {footer.before}
      <a href={place} style={link}>
        {place.replace(/^https?:\/\//, "")}
      </a>
      . {KEEPS_PLACE}
      <br />
      {answersUrl ? (
        <>
          <a href={answersUrl} style={link}>
            {ANSWERS}
          </a>
          {" · "}
        </>
      ) : null}
      <a href={unsubscribeUrl} style={link}>
        {footer.unsubscribe}
      </a>
      {" · "}
      <a href={removeUrl} style={link}>
        {REMOVE}
      </a>
    </MailFooter>
  );
}

function broadcastTextFooter({
  kind,
  siteUrl,
  unsubscribeUrl,
  removeUrl,
  answersUrl,
}: BroadcastMail) {
  const footer = FOOTERS[kind];
  return textFooter([
    `${footer.before}${footer.place(siteUrl)}. ${KEEPS_PLACE}`,
    ...(answersUrl ? [`${ANSWERS}: ${answersUrl}`] : []),
    `${footer.unsubscribe}: ${unsubscribeUrl}`,
    `${REMOVE}: ${removeUrl}`,
  ]);
}

export function renderBroadcast(mail: BroadcastMail): {
  subject: string;
  html: string;
  text: string;
} {
  const name = mail.name?.trim();
  const greeting = name ? `Hello ${name},` : null;
  const html = renderMailHtml(
    mail.subject,
    <>
      {greeting ? <MailText>{greeting}</MailText> : null}
      <MarkdownHtml blocks={mail.blocks} />
      <BroadcastFooter {...mail} />
    </>,
  );
  const text = [
    ...(greeting ? [greeting, ""] : []),
    markdownText(mail.blocks),
    "",
    ...broadcastTextFooter(mail),
  ].join("\n");
  return { subject: mail.subject, html, text };
}
