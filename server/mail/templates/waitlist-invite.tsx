/**
 * The invitation (decision 024): the link opens sign-up with the invited address filled in. Sent
 * when an admin invites an entry, and again, with a fresh link, when an admin resends it.
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

export type WaitlistInviteMail = MailFooter & {
  name: string;
  signupUrl: string;
  /** How long the link works (INVITE_TTL_DAYS). */
  days: number;
};

export function renderWaitlistInvite(mail: WaitlistInviteMail) {
  const title = `Your invitation to ${SITE.name}`;
  const body = `Your spot in the ${SITE.name} private beta is open. Create your account with this address to start`;
  const note = `The link works for ${mail.days} ${mail.days === 1 ? "day" : "days"} and creates one account, for this address only. If it has expired, reply to this mail and we will send a new one.`;
  return {
    subject: title,
    html: mailHtml(
      title,
      mail,
      <>
        <MailParagraph>Hello {mail.name},</MailParagraph>
        <MailParagraph last>{body}.</MailParagraph>
        <MailButton href={mail.signupUrl}>Create my account</MailButton>
        <MailNote>{note}</MailNote>
      </>,
    ),
    text: mailText([`Hello ${mail.name},`, "", `${body}:`, "", mail.signupUrl, "", note], mail),
  };
}
