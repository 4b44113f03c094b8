/**
 * The confirmation mail of a new waitlist entry (decision 023): the HTML part from components, the
 * plain-text part written beside it from the same facts (server/mail/templates/layout.tsx).
 */
import { SITE } from "#src/content/site.ts";
import {
  MailButton,
  mailHtml,
  MailNote,
  MailParagraph,
  mailText,
  type MailFooter,
} from "#server/mail/templates/layout.tsx";

export type WaitlistConfirmMail = MailFooter & {
  /** The visitor's name as they typed it. */
  name: string;
  confirmUrl: string;
};

/** Subject, HTML and text of the confirmation mail. */
export function renderWaitlistConfirm(mail: WaitlistConfirmMail) {
  const title = `Confirm your place on the ${SITE.name} waitlist`;
  const ask = `Thank you for joining the ${SITE.name} waitlist. Please confirm that this is your address, so we can email you when your spot opens`;
  const note =
    "The link works for 14 days. If you did not ask to join, ignore this mail: we will not write again unless you confirm.";
  return {
    subject: title,
    html: mailHtml(
      title,
      mail,
      <>
        <MailParagraph>Hello {mail.name},</MailParagraph>
        <MailParagraph last>{ask}.</MailParagraph>
        <MailButton href={mail.confirmUrl}>Confirm my address</MailButton>
        <MailNote>{note}</MailNote>
      </>,
    ),
    text: mailText([`Hello ${mail.name},`, "", `${ask}:`, "", mail.confirmUrl, "", note], mail),
  };
}
