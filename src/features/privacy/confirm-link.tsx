/**
 * The page behind the link in a privacy request's mail: /privacy-request/confirm. As every mail
 * link's page (decision 023): opening it only reads and shows one button; only the button's POST
 * confirms and carries the request out. Whatever is or is not held under the address, the page
 * says the same (decision 030).
 */
import type { LoadContext } from "#src/load-context.ts";
import { formatDate, type IsoDate } from "#src/content/dates.ts";
import { SITE } from "#src/content/site.ts";
import { readMailLink, spendMailLink } from "#src/lib/mail-link.ts";
import type { PrivacyRequestKind } from "#src/lib/privacy-requests.ts";
import { GoneLinkCard, MailLinkCard } from "#src/ui/mail-link-card.tsx";

export type ConfirmLinkView =
  | { kind: "ask"; request: PrivacyRequestKind; maskedEmail: string; token: string }
  | { kind: "done"; request: Exclude<PrivacyRequestKind, "correction"> }
  | { kind: "open"; request: PrivacyRequestKind; dueAt: string }
  | { kind: "gone" };

const ASK: Record<PrivacyRequestKind, { text: string; button: string }> = {
  access: {
    text: "Email a copy of the personal data we hold under this address to",
    button: "Send my data",
  },
  deletion: {
    text: `Erase the personal data we hold under this address, including any ${SITE.name} account that uses it? This cannot be undone. The address:`,
    button: "Erase my data",
  },
  correction: {
    text: "Send us your correction request for the data we hold under",
    button: "Confirm my request",
  },
};

const DONE: Record<Exclude<PrivacyRequestKind, "correction">, { title: string; text: string }> = {
  access: {
    title: "Your data is on its way",
    text: "We have mailed what we hold under this address to it, as a file and in brief. It arrives within a few minutes.",
  },
  deletion: {
    title: "Your data is erased",
    text: `Everything we held under this address is erased, and any ${SITE.name} account that used it is deleted. Copies in our backups go within the periods of our Privacy Policy.`,
  },
};

const UNAVAILABLE = "Privacy requests are unavailable for a moment. Please try again in a minute.";
const BACK = { to: "/privacy-request", label: "Make another request" };

/** Reads only: which request this is and whose, never a change (a scanner's GET changes nothing). */
export function loadConfirmLink(request: Request, context: LoadContext) {
  return readMailLink(
    request,
    context,
    (token) => context.privacyRequests.checkLink(token),
    UNAVAILABLE,
  );
}

/** The one POST that acts: the page's button. */
export function actOnConfirmLink(request: Request, context: LoadContext) {
  return spendMailLink(
    request,
    context,
    (token, client) => context.privacyRequests.confirm(token, client),
    UNAVAILABLE,
  );
}

export function ConfirmLinkPage({ view }: { view: ConfirmLinkView }) {
  switch (view.kind) {
    case "ask":
      return (
        <MailLinkCard
          title="Confirm your privacy request"
          action={{ token: view.token, label: ASK[view.request].button }}
          back={BACK}
        >
          {ASK[view.request].text} <strong className="text-ink">{view.maskedEmail}</strong>
        </MailLinkCard>
      );
    case "done":
      return (
        <MailLinkCard title={DONE[view.request].title} back={BACK}>
          {DONE[view.request].text}
        </MailLinkCard>
      );
    case "open":
      return (
        <MailLinkCard title="We have your request" back={BACK}>
          {view.request === "correction"
            ? "A person will make the correction and email you what was done, "
            : "It is being carried out, and we will email you if anything more is needed, "}
          by {formatDate(view.dueAt.slice(0, 10) as IsoDate)} at the latest.
        </MailLinkCard>
      );
    case "gone":
      return <GoneLinkCard back={BACK} />;
  }
}
