/**
 * The invitation (decision 024): the link opens sign-up with the invited address filled in. Sent
 * when an admin invites an entry, and again, with a fresh link, when an admin resends it.
 */
import { SITE } from "#src/content/site.ts";
import {
  MAIL_COLORS,
  MailButton,
  MailText,
  renderMailHtml,
} from "#server/mail/templates/layout.tsx";
import {
  WaitlistFooter,
  waitlistTextFooter,
  type WaitlistFooterLinks,
} from "#server/mail/templates/waitlist-footer.tsx";

export type WaitlistInviteMail = WaitlistFooterLinks & {
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
    html: renderMailHtml(
      title,
      <>
        <MailText>Hello {mail.name},</MailText>
        <MailText>{body}.</MailText>
        <MailButton href={mail.signupUrl}>Create my account</MailButton>
        <p style={{ margin: "16px 0 0", fontSize: "14px", color: MAIL_COLORS.soft }}>{note}</p>
        <WaitlistFooter {...mail} />
      </>,
    ),
    text: [
      `Hello ${mail.name},`,
      "",
      `${body}:`,
      "",
      mail.signupUrl,
      "",
      note,
      "",
      ...waitlistTextFooter(mail),
    ].join("\n"),
  };
}
