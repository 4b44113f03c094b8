/**
 * The mails of the subscription to sub-processor changes (decision 025): the confirmation asked
 * for once per new subscriber, and the notice of each change. Facts come from the typed list
 * (src/content/subprocessors.ts), links from SITE_URL; every mail says how to unsubscribe.
 */
import { formatDate } from "#src/content/dates.ts";
import { SITE } from "#src/content/site.ts";
import {
  OBJECTION_DAYS,
  subprocessorById,
  subprocessorName,
  type Subprocessor,
  type SubprocessorChange,
} from "#src/content/subprocessors.ts";
import {
  MAIL_COLORS,
  MailButton,
  MailFooter,
  MailText,
  renderMailHtml,
  textFooter,
} from "#server/mail/templates/layout.tsx";

type Links = { siteUrl: string; unsubscribeUrl: string };

const listUrl = (siteUrl: string) => `${siteUrl}/subprocessors`;

/** Why this mail came: asked for at the list (before confirming) or subscribed to (after). */
function why(siteUrl: string, confirmed = true) {
  return confirmed
    ? `You receive this mail because this address subscribed to changes of ${SITE.name}'s sub-processors at ${listUrl(siteUrl)}.`
    : `You receive this mail because this address was entered to follow changes of ${SITE.name}'s sub-processors at ${listUrl(siteUrl)}.`;
}

function Footer({
  siteUrl,
  unsubscribeUrl,
  label,
  confirmed = true,
}: Links & { label: string; confirmed?: boolean }) {
  return (
    <MailFooter>
      {why(siteUrl, confirmed)}{" "}
      <a href={unsubscribeUrl} style={{ color: MAIL_COLORS.soft }}>
        {label}
      </a>
      .
    </MailFooter>
  );
}

export type SubscriptionConfirmMail = Links & { confirmUrl: string };

const CONFIRM_TITLE = `Confirm your subscription to ${SITE.name}'s sub-processor changes`;
const CONFIRM_ASK = `We were asked to email this address whenever ${SITE.name} adds, replaces or stops using a sub-processor. If that was you, please confirm that this is your address.`;
const CONFIRM_LATER =
  "The link works for 14 days. If you did not ask for this, ignore this mail: we will not write again unless you confirm.";

/** Subject, HTML and text of the mail that asks a new subscriber to confirm. */
export function renderSubscriptionConfirm(mail: SubscriptionConfirmMail) {
  const html = renderMailHtml(
    CONFIRM_TITLE,
    <>
      <MailText>{CONFIRM_ASK}</MailText>
      <MailButton href={mail.confirmUrl}>Confirm my subscription</MailButton>
      <p style={{ margin: "16px 0 0", fontSize: "14px", color: MAIL_COLORS.soft }}>
        {CONFIRM_LATER}
      </p>
      <Footer {...mail} label="Cancel this subscription" confirmed={false} />
    </>,
  );
  const text = [
    CONFIRM_ASK,
    "",
    mail.confirmUrl,
    "",
    CONFIRM_LATER,
    "",
    ...textFooter([why(mail.siteUrl, false), `Cancel this subscription: ${mail.unsubscribeUrl}`]),
  ].join("\n");
  return { subject: CONFIRM_TITLE, html, text };
}

export type SubprocessorNoticeMail = Links & {
  change: SubprocessorChange;
  /** The list the change names its sub-processors from. */
  list: readonly Subprocessor[];
};

/** What the notice says about the sub-processors a change adds and removes, line by line. */
function changeLines(change: SubprocessorChange, list: readonly Subprocessor[]): string[] {
  const lines: string[] = [];
  const added = change.adds ? subprocessorById(change.adds, list) : undefined;
  const removed = change.removes ? subprocessorById(change.removes, list) : undefined;
  if (added)
    lines.push(
      `New sub-processor: ${subprocessorName(added)}`,
      `What it does: ${added.purpose}`,
      `Data it receives: ${added.data}`,
      `Location: ${added.location}`,
    );
  if (removed) lines.push(`No longer used: ${subprocessorName(removed)}`);
  return lines;
}

/** Subject, HTML and text of the notice of one change. */
export function renderSubprocessorNotice(mail: SubprocessorNoticeMail) {
  const { change } = mail;
  const title = `${SITE.name} sub-processor change, effective ${formatDate(change.effective)}`;
  const dates = `Published ${formatDate(change.published)}. Takes effect ${formatDate(change.effective)}.`;
  const objection = `Customers under our Data Processing Addendum may object to a new sub-processor on reasonable grounds relating to data protection within ${OBJECTION_DAYS} days of this notice, by writing to ${SITE.contactEmail} (DPA section 5.6).`;
  const details = changeLines(change, mail.list);
  const entryUrl = `${listUrl(mail.siteUrl)}#change-${change.id}`;
  const html = renderMailHtml(
    title,
    <>
      <MailText>{change.summary}</MailText>
      <MailText>
        {details.map((line, i) => (
          <span key={line}>
            {i > 0 ? <br /> : null}
            {line}
          </span>
        ))}
      </MailText>
      <MailText>{dates}</MailText>
      <MailText small>{objection}</MailText>
      <MailButton href={entryUrl}>See the sub-processor list</MailButton>
      <Footer {...mail} label="Unsubscribe" />
    </>,
  );
  const text = [
    change.summary,
    "",
    ...details,
    "",
    dates,
    "",
    objection,
    "",
    `The sub-processor list: ${entryUrl}`,
    "",
    ...textFooter([why(mail.siteUrl), `Unsubscribe: ${mail.unsubscribeUrl}`]),
  ].join("\n");
  return { subject: title, html, text };
}
