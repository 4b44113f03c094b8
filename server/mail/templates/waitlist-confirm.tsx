/**
 * The confirmation mail of a new waitlist entry (decision 023): one component for the HTML part,
 * the plain-text part written beside it from the same facts, in the frame of layout.tsx.
 */
import { SITE } from "#src/content/site.ts";
import {
  MAIL_COLORS,
  MailButton,
  MailText,
  renderMailHtml,
} from "#server/mail/templates/layout.tsx";
import { WaitlistFooter, waitlistTextFooter } from "#server/mail/templates/waitlist-footer.tsx";

/**
 * No name in it: the address has not confirmed yet, so nothing the form's sender typed reaches its
 * inbox (anyone can enter anyone's address, with any name).
 */
export type WaitlistConfirmMail = {
  confirmUrl: string;
  removeUrl: string;
  siteUrl: string;
};

const TITLE = `Confirm your place on the ${SITE.name} waitlist`;

function WaitlistConfirmBody({ confirmUrl, removeUrl, siteUrl }: WaitlistConfirmMail) {
  return (
    <>
      <MailText>Hello,</MailText>
      <MailText>
        Thank you for joining the {SITE.name} waitlist. Please confirm that this is your address, so
        we can email you when your spot opens.
      </MailText>
      <MailButton href={confirmUrl}>Confirm my address</MailButton>
      <p style={{ margin: "16px 0 0", fontSize: "14px", color: MAIL_COLORS.soft }}>
        The link works for 14 days. If you did not ask to join, ignore this mail: we will not write
        again unless you confirm.
      </p>
      <WaitlistFooter removeUrl={removeUrl} siteUrl={siteUrl} />
    </>
  );
}

function waitlistConfirmText({ confirmUrl, removeUrl, siteUrl }: WaitlistConfirmMail) {
  return [
    "Hello,",
    "",
    `Thank you for joining the ${SITE.name} waitlist. Please confirm that this is your address, so we can email you when your spot opens:`,
    "",
    confirmUrl,
    "",
    "The link works for 14 days. If you did not ask to join, ignore this mail: we will not write again unless you confirm.",
    "",
    ...waitlistTextFooter({ removeUrl, siteUrl }),
  ].join("\n");
}

/** Subject, HTML and text of the confirmation mail. */
export function renderWaitlistConfirm(mail: WaitlistConfirmMail) {
  return {
    subject: TITLE,
    html: renderMailHtml(TITLE, <WaitlistConfirmBody {...mail} />),
    text: waitlistConfirmText(mail),
  };
}
