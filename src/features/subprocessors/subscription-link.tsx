/**
 * The pages behind the links in subscription mail: /subprocessors/confirm and
 * /subprocessors/unsubscribe. As the waitlist's (decision 023): opening one only reads and shows
 * one button; only its POST, or a mail client's one-click unsubscribe, confirms or erases. A link
 * that no longer works, however it came to be, gets the same calm page.
 */
import type { LoadContext } from "#src/load-context.ts";
import { SITE } from "#src/content/site.ts";
import { mailLinkMeta, readMailLink, spendMailLink } from "#src/lib/mail-link.ts";
import type { pageMeta } from "#src/lib/meta.ts";
import type { SubscriptionLinkPurpose } from "#src/lib/subprocessor-subscriptions.ts";
import { GoneLinkCard, MailLinkCard } from "#src/ui/mail-link-card.tsx";

export type SubscriptionLinkView =
  | { kind: "ask"; maskedEmail: string; token: string }
  | { kind: "confirmed" }
  | { kind: "unsubscribed" }
  | { kind: "gone" };

const TEXT = {
  confirm: {
    title: "Confirm your subscription",
    ask: "Email notice of sub-processor changes to this address?",
    button: "Confirm my subscription",
  },
  unsubscribe: {
    title: "Unsubscribe",
    ask: "Stop emailing sub-processor changes to this address? The subscription is erased.",
    button: "Unsubscribe",
  },
} as const;

const UNAVAILABLE = "Subscriptions are unavailable for a moment. Please try again in a minute.";

export function subscriptionLinkMeta(
  purpose: SubscriptionLinkPurpose,
  args: Parameters<typeof pageMeta>[0],
) {
  return mailLinkMeta(args, {
    title: TEXT[purpose].title,
    description: `${TEXT[purpose].title}: ${SITE.name}'s notices of sub-processor changes.`,
  });
}

/** Reads only: whose link this is, never a change (a scanner's GET must change nothing). */
export function loadSubscriptionLink(
  purpose: SubscriptionLinkPurpose,
  request: Request,
  context: LoadContext,
) {
  return readMailLink(
    request,
    context,
    (token) => context.subprocessors.checkLink(purpose, token),
    UNAVAILABLE,
  );
}

/** The one POST that acts: the page's button, or a mail client's one-click unsubscribe. */
export function actOnSubscriptionLink(
  purpose: SubscriptionLinkPurpose,
  request: Request,
  context: LoadContext,
) {
  return spendMailLink(
    request,
    context,
    (token, client) => context.subprocessors.useLink(purpose, token, client),
    UNAVAILABLE,
  );
}

export function SubscriptionLinkPage({
  purpose,
  view,
}: {
  purpose: SubscriptionLinkPurpose;
  view: SubscriptionLinkView;
}) {
  const text = TEXT[purpose];
  const back = { to: "/subprocessors", label: "See the sub-processor list" };
  switch (view.kind) {
    case "ask":
      return (
        <MailLinkCard
          title={text.title}
          action={{ token: view.token, label: text.button }}
          back={back}
        >
          {text.ask} <strong className="text-ink">{view.maskedEmail}</strong>
        </MailLinkCard>
      );
    case "confirmed":
      return (
        <MailLinkCard title="Your subscription is confirmed" back={back}>
          We will email you whenever {SITE.name} announces a change to its sub-processors, at least
          as long before it takes effect as the DPA promises.
        </MailLinkCard>
      );
    case "unsubscribed":
      return (
        <MailLinkCard title="You are unsubscribed" back={back}>
          Your subscription is erased, and we will not email you about sub-processor changes again.
        </MailLinkCard>
      );
    case "gone":
      return <GoneLinkCard back={back} />;
  }
}
