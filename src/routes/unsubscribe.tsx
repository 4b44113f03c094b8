import type { Route } from "./+types/unsubscribe";
import { SITE } from "#src/content/site.ts";
import type { BroadcastKind } from "#src/lib/mail-ports.ts";
import {
  MAIL_LINK_HEADERS,
  mailLinkMeta,
  readMailLink,
  spendMailLink,
} from "#src/lib/mail-link.ts";
import { loadContext } from "#src/load-context.ts";
import { MailLinkCard } from "#src/ui/mail-link-card.tsx";

/**
 * The unsubscribe link of a broadcast (decision 041): GET shows one button, only its POST acts,
 * or the mail client's one-click POST (RFC 8058, `List-Unsubscribe=One-Click` in its body). It
 * stops one kind of broadcast for the address; the waitlist entry stays, and "Remove me from the
 * waitlist" remains its own link.
 */
export const headers: Route.HeadersFunction = () => MAIL_LINK_HEADERS;
export const meta: Route.MetaFunction = (args) =>
  mailLinkMeta(args, {
    title: "Unsubscribe",
    description: `Stop one kind of ${SITE.name} news to your address.`,
  });

/** After the button's POST the page shows the outcome, and the link's page is not asked again. */
export const shouldRevalidate = () => false;

const UNAVAILABLE = "Unsubscribing is unavailable for a moment. Please try again in a minute.";

const NEWS: Record<BroadcastKind, string> = {
  "waitlist-news": "waitlist news",
  "product-news": "product news",
};

export function loader({ request, context }: Route.LoaderArgs) {
  const server = context.get(loadContext);
  return readMailLink(request, server, (token) => server.mail.checkUnsubscribe(token), UNAVAILABLE);
}

export function action({ request, context }: Route.ActionArgs) {
  const server = context.get(loadContext);
  return spendMailLink(
    request,
    server,
    (token, _client, form) =>
      server.mail.unsubscribe(
        token,
        form.get("List-Unsubscribe") === "One-Click" ? "one-click" : "unsubscribe-page",
      ),
    UNAVAILABLE,
  );
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const view = actionData ?? loaderData;
  const back = { to: "/", label: `Go to ${SITE.name}` };
  switch (view.kind) {
    case "ask":
      return (
        <MailLinkCard
          title={`Unsubscribe from ${NEWS[view.news]}`}
          action={{ token: view.token, label: "Unsubscribe" }}
          back={back}
        >
          Stop emailing {NEWS[view.news]} to{" "}
          <strong className="text-ink">{view.maskedEmail}</strong>? Your place on the waitlist stays
          as it is.
        </MailLinkCard>
      );
    case "unsubscribed":
      return (
        <MailLinkCard title="You are unsubscribed" back={back}>
          We will not email you {NEWS[view.news]} again. Your place on the waitlist stays as it is;
          the link at the end of any of our mails removes you from it.
        </MailLinkCard>
      );
    case "gone":
      // An unsubscribe link works however often it is pressed: one that does not was mistyped, or
      // names an entry no longer on the list, which gets no news anyway.
      return (
        <MailLinkCard title="This link no longer works" back={back}>
          It is not one of ours, or the address it was sent to is no longer on the waitlist, and we
          send it no news. Nothing was changed.
        </MailLinkCard>
      );
  }
}
