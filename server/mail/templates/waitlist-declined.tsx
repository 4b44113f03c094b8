/**
 * The mail an admin may send when declining an entry (decision 024): only when they tick "Tell
 * them", and only to an address its owner confirmed.
 */
import { SITE } from "#src/content/site.ts";
import { MailText, renderMailHtml } from "#server/mail/templates/layout.tsx";
import {
  WaitlistFooter,
  waitlistTextFooter,
  type WaitlistFooterLinks,
} from "#server/mail/templates/waitlist-footer.tsx";

export type WaitlistDeclinedMail = WaitlistFooterLinks & { name: string };

export function renderWaitlistDeclined(mail: WaitlistDeclinedMail) {
  const title = `About your place on the ${SITE.name} waitlist`;
  const lines = [
    `Thank you for your interest in ${SITE.name}. We are not able to offer you a place in our private beta, and we will not email you about the waitlist again.`,
    "If you would like your entry erased, use the link at the end of this mail.",
  ] as const;
  return {
    subject: title,
    html: renderMailHtml(
      title,
      <>
        <MailText>Hello {mail.name},</MailText>
        <MailText>{lines[0]}</MailText>
        <MailText>{lines[1]}</MailText>
        <WaitlistFooter {...mail} />
      </>,
    ),
    text: [`Hello ${mail.name},`, "", lines[0], "", lines[1], "", ...waitlistTextFooter(mail)].join(
      "\n",
    ),
  };
}
