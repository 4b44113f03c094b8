/**
 * The mails of privacy requests (decision 030): the link that confirms a request, the data an
 * access request asked for, and the word that a correction is done. None of them depends on
 * whether anything is held under the address, except the data itself, which only the owner of
 * the address receives.
 */
import { SITE } from "#src/content/site.ts";
import {
  MAIL_COLORS,
  MailButton,
  MailFooter,
  MailText,
  renderMailHtml,
  textFooter,
} from "#server/mail/templates/layout.tsx";
import { PRIVACY_LINK_DAYS, type PrivacyRequestKind } from "#src/lib/privacy-requests.ts";

const WHAT: Record<PrivacyRequestKind, string> = {
  access: `send a copy of the personal data ${SITE.name} holds under this address to this address`,
  deletion: `erase the personal data ${SITE.name} holds under this address, including any ${SITE.name} account that uses it`,
  correction: `correct the personal data ${SITE.name} holds under this address`,
};

const BUTTON: Record<PrivacyRequestKind, string> = {
  access: "Confirm and send my data",
  deletion: "Confirm and erase my data",
  correction: "Confirm my correction request",
};

function why(siteUrl: string) {
  return `You receive this mail because a privacy request naming this address was made at ${siteUrl}/privacy-request.`;
}

type ConfirmMail = { kind: PrivacyRequestKind; confirmUrl: string; siteUrl: string };

/** Subject, HTML and text of the mail whose link confirms a request. */
export function renderPrivacyConfirm(mail: ConfirmMail) {
  const title = "Confirm your privacy request";
  const ask = `We were asked to ${WHAT[mail.kind]}. If that was you, press the button and confirm on the page it opens; nothing is done until you do.`;
  const later = `The link works for ${PRIVACY_LINK_DAYS} days. If you did not ask for this, ignore this mail: nothing will change.`;
  return {
    subject: title,
    html: renderMailHtml(
      title,
      <>
        <MailText>{ask}</MailText>
        <MailButton href={mail.confirmUrl}>{BUTTON[mail.kind]}</MailButton>
        <p style={{ margin: "16px 0 0", fontSize: "14px", color: MAIL_COLORS.soft }}>{later}</p>
        <MailFooter>{why(mail.siteUrl)}</MailFooter>
      </>,
    ),
    text: [ask, "", mail.confirmUrl, "", later, "", ...textFooter([why(mail.siteUrl)])].join("\n"),
  };
}

/**
 * The data an access request gathered, as this mail needs it: the address and the time it was
 * gathered, the same data in sentences for the body, and all of it for the attached file. The
 * privacy service gathers and words it (server/privacy/data-held.ts); the mail only lays it out.
 */
type HeldData = {
  email: string;
  /** ISO 8601. */
  gatheredAt: string;
  sections: readonly { heading: string; lines: readonly string[] }[];
  file: unknown;
};

/** The attached file's name: the site and the day the data was gathered. */
function dataFileName(gatheredAt: string): string {
  return `${SITE.name.toLowerCase()}-data-${gatheredAt.slice(0, 10)}.json`;
}

/** Subject, HTML, text and attachment of the mail that answers an access request. */
export function renderPrivacyAccess({ data, siteUrl }: { data: HeldData; siteUrl: string }) {
  const title = `The personal data ${SITE.name} holds for you`;
  const intro = `You confirmed a request for the personal data we hold under ${data.email}. Here it is in brief; the attached file, ${dataFileName(data.gatheredAt)}, holds all of it as JSON.`;
  const sections = data.sections;
  const closing = `To have any of it corrected or erased, make a request at ${siteUrl}/privacy-request.`;
  return {
    subject: title,
    html: renderMailHtml(
      title,
      <>
        <MailText>{intro}</MailText>
        {sections.map((section) => (
          <div key={section.heading}>
            <p style={{ margin: "0 0 6px", fontWeight: 700 }}>{section.heading}</p>
            <MailText>
              {section.lines.length === 0
                ? "None."
                : section.lines.map((line, i) => (
                    <span key={line}>
                      {i > 0 ? <br /> : null}
                      {line}
                    </span>
                  ))}
            </MailText>
          </div>
        ))}
        <MailText>{closing}</MailText>
        <MailFooter>{why(siteUrl)}</MailFooter>
      </>,
    ),
    text: [
      intro,
      "",
      ...sections.flatMap((s) => [s.heading, ...(s.lines.length === 0 ? ["None."] : s.lines), ""]),
      closing,
      "",
      ...textFooter([why(siteUrl)]),
    ].join("\n"),
    attachment: {
      filename: dataFileName(data.gatheredAt),
      contentType: "application/json; charset=utf-8",
      content: `${JSON.stringify(data.file, null, 2)}\n`,
    },
  };
}

/** Subject, HTML and text of the mail that says a correction request was done, and how. */
export function renderPrivacyCorrected({ note, siteUrl }: { note: string; siteUrl: string }) {
  const title = "Your privacy request is done";
  const intro = "We have answered the correction request you confirmed. What we did:";
  const closing = `If something is still not right, write to ${SITE.contactEmail} or make a new request at ${siteUrl}/privacy-request.`;
  return {
    subject: title,
    html: renderMailHtml(
      title,
      <>
        <MailText>{intro}</MailText>
        <MailText>
          <span style={{ whiteSpace: "pre-wrap" }}>{note}</span>
        </MailText>
        <MailText>{closing}</MailText>
        <MailFooter>{why(siteUrl)}</MailFooter>
      </>,
    ),
    text: [intro, "", note, "", closing, "", ...textFooter([why(siteUrl)])].join("\n"),
  };
}
