/**
 * The mails an administrator receives about their own access (decision 039): the code that proves
 * the mailbox before a first passkey, and a word on every change to their credentials, so a change
 * they did not make is seen at once. None carries a link that does anything: the code is typed on
 * the page that asked for it, and a notice says where to look.
 */
import { SITE } from "#src/content/site.ts";
import {
  MAIL_COLORS,
  MailFooter,
  MailText,
  renderMailHtml,
  textFooter,
} from "#server/mail/templates/layout.tsx";

function why(siteUrl: string) {
  return `You receive this mail because this address is an administrator's of ${siteUrl}.`;
}

const NOT_YOU = `If this was not you, sign in at once, remove what you do not recognise under Passkeys on your account page, and tell the other administrators: someone may hold your password.`;

type Rendered = { subject: string; html: string; text: string };

function notice(siteUrl: string, title: string, lines: string[]): Rendered {
  const all = [...lines, NOT_YOU];
  return {
    subject: title,
    html: renderMailHtml(
      title,
      <>
        {all.map((line) => (
          <MailText key={line}>{line}</MailText>
        ))}
        <MailFooter>{why(siteUrl)}</MailFooter>
      </>,
    ),
    text: [...all.flatMap((line) => [line, ""]), ...textFooter([why(siteUrl)])].join("\n"),
  };
}

/** The six-digit code that proves the mailbox before a first passkey is registered. */
export function renderAdminCode({
  code,
  minutes,
  siteUrl,
}: {
  code: string;
  minutes: number;
  siteUrl: string;
}): Rendered {
  const title = `Your ${SITE.name} admin code: ${code}`;
  const ask = `Type this code on the page that asked for it, to set up a passkey for the ${SITE.name} admin:`;
  const later = `It works once, for ${minutes} minutes. If you did not ask for it, someone has your password: change it, and tell the other administrators.`;
  return {
    subject: title,
    html: renderMailHtml(
      title,
      <>
        <MailText>{ask}</MailText>
        <p
          style={{
            margin: "0 0 16px",
            fontSize: "28px",
            fontWeight: 700,
            letterSpacing: "6px",
            color: MAIL_COLORS.ink,
          }}
        >
          {code}
        </p>
        <MailText small>{later}</MailText>
        <MailFooter>{why(siteUrl)}</MailFooter>
      </>,
    ),
    text: [ask, "", code, "", later, "", ...textFooter([why(siteUrl)])].join("\n"),
  };
}

/** What happened to an administrator's access, in one sentence each. */
export type AdminNotice =
  | { kind: "passkey-added"; name: string }
  | { kind: "passkey-removed"; name: string }
  | { kind: "recovery-used"; left: number }
  | { kind: "recovery-codes"; count: number }
  | { kind: "reset"; by: string }
  | { kind: "locked"; minutes: number }
  | { kind: "export-token"; label: string; days: number; by: string };

export function renderAdminNotice(siteUrl: string, event: AdminNotice): Rendered {
  switch (event.kind) {
    case "passkey-added":
      return notice(siteUrl, "A passkey was added to your admin access", [
        `A passkey named "${event.name}" can now verify your ${SITE.name} admin sign-in.`,
      ]);
    case "passkey-removed":
      return notice(siteUrl, "A passkey was removed from your admin access", [
        `The passkey named "${event.name}" no longer verifies your ${SITE.name} admin sign-in.`,
      ]);
    case "recovery-used":
      return notice(siteUrl, "A recovery code was used for your admin access", [
        `One of your recovery codes let your ${SITE.name} admin sign-in in, and a new passkey was asked for. ${event.left} ${event.left === 1 ? "code is" : "codes are"} left.`,
      ]);
    case "recovery-codes":
      return notice(siteUrl, "New recovery codes for your admin access", [
        `${event.count} new recovery codes were made for your ${SITE.name} admin access; the earlier ones no longer work.`,
      ]);
    case "reset":
      return notice(siteUrl, "Your admin passkeys were reset", [
        `${event.by} removed every passkey and recovery code of your ${SITE.name} admin access, and ended your sessions. Sign in with your password to set up a new passkey: a code will be mailed here.`,
      ]);
    case "locked":
      return notice(siteUrl, "Your admin access is locked for a while", [
        `Five verifications of your ${SITE.name} admin access failed within 15 minutes, so it is locked for ${event.minutes} minutes. Your passkeys and codes are unchanged.`,
      ]);
    case "export-token":
      return notice(siteUrl, "An export token was made for your admin access", [
        `${event.by} made an export token named "${event.label}" under your address. It downloads the waitlist as CSV for ${event.days} ${event.days === 1 ? "day" : "days"}, unless it is revoked on the admin page.`,
      ]);
  }
}

/**
 * A webhook endpoint the site stopped delivering to (decision 046): it answered 410 Gone, or every
 * delivery failed for five days. Nothing more is sent to it until an administrator enables it.
 */
export function renderWebhookDisabled({
  siteUrl,
  endpointUrl,
  reason,
}: {
  siteUrl: string;
  endpointUrl: string;
  reason: string;
}): Rendered {
  const title = `A ${SITE.name} webhook endpoint was disabled`;
  const lines = [
    `The site stopped delivering events to ${endpointUrl}: ${reason}.`,
    `Events from now on are not queued for it. When the receiver works again, enable the endpoint on the Webhooks page of the admin (${siteUrl}/admin/webhooks); the events it missed are listed in its delivery log.`,
  ];
  return {
    subject: title,
    html: renderMailHtml(
      title,
      <>
        {lines.map((line) => (
          <MailText key={line}>{line}</MailText>
        ))}
        <MailFooter>{why(siteUrl)}</MailFooter>
      </>,
    ),
    text: [...lines.flatMap((line) => [line, ""]), ...textFooter([why(siteUrl)])].join("\n"),
  };
}
