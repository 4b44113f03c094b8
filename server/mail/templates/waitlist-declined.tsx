/**
 * The mail an admin may send when declining an entry (decision 024): only when they tick "Tell
 * them", and only to an address its owner confirmed.
 */
import { SITE } from "#src/content/site.ts";
import {
  mailHtml,
  MailParagraph,
  mailText,
  type MailFooter,
} from "#server/mail/templates/layout.tsx";

export type WaitlistDeclinedMail = MailFooter & { name: string };

export function renderWaitlistDeclined(mail: WaitlistDeclinedMail) {
  const title = `About your place on the ${SITE.name} waitlist`;
  const lines = [
    `Thank you for your interest in ${SITE.name}. We are not able to offer you a place in our private beta, and we will not email you about the waitlist again.`,
    "If you would like your entry erased, use the link at the end of this mail.",
  ];
  return {
    subject: title,
    html: mailHtml(
      title,
      mail,
      <>
        <MailParagraph>Hello {mail.name},</MailParagraph>
        <MailParagraph>{lines[0]}</MailParagraph>
        <MailParagraph>{lines[1]}</MailParagraph>
      </>,
    ),
    text: mailText([`Hello ${mail.name},`, "", lines[0]!, "", lines[1]!], mail),
  };
}
