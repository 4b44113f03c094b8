/**
 * The end of every waitlist mail (decision 023): why it came, the link that removes the entry,
 * and the sender's postal address (layout.tsx), in the HTML part and in the plain text.
 */
import { SITE } from "#src/content/site.ts";
import { MAIL_COLORS, MailFooter, textFooter } from "#server/mail/templates/layout.tsx";

export type WaitlistFooterLinks = { removeUrl: string; siteUrl: string };

export function WaitlistFooter({ removeUrl, siteUrl }: WaitlistFooterLinks) {
  return (
    <MailFooter>
      You receive this mail because this address was entered on the {SITE.name} waitlist at{" "}
      <a href={`${siteUrl}/waitlist`} style={{ color: MAIL_COLORS.soft }}>
        {siteUrl.replace(/^https?:\/\//, "")}
      </a>
      . Not you, or changed your mind?{" "}
      <a href={removeUrl} style={{ color: MAIL_COLORS.soft }}>
        Remove me from the waitlist
      </a>
      .
    </MailFooter>
  );
}

export function waitlistTextFooter({ removeUrl, siteUrl }: WaitlistFooterLinks): string[] {
  return textFooter([
    `You receive this mail because this address was entered on the ${SITE.name} waitlist at ${siteUrl}/waitlist.`,
    `Remove me from the waitlist: ${removeUrl}`,
  ]);
}
