import type { Route } from "./+types/subprocessors-confirm";
import {
  actOnSubscriptionLink,
  loadSubscriptionLink,
  SubscriptionLinkPage,
  subscriptionLinkMeta,
} from "#src/features/subprocessors/subscription-link.tsx";
import { MAIL_LINK_HEADERS } from "#src/lib/mail-link.ts";
import { loadContext } from "#src/load-context.ts";

/** The confirm link of a subscription mail: GET shows one button, only its POST acts (decision 025). */
export const headers: Route.HeadersFunction = () => MAIL_LINK_HEADERS;
export const meta: Route.MetaFunction = (args) => subscriptionLinkMeta("confirm", args);

/** After the button's POST the page shows the outcome; the used token's page is not asked for again. */
export const shouldRevalidate = () => false;

export function loader({ request, context }: Route.LoaderArgs) {
  return loadSubscriptionLink("confirm", request, context.get(loadContext));
}

export function action({ request, context }: Route.ActionArgs) {
  return actOnSubscriptionLink("confirm", request, context.get(loadContext));
}

export default function SubscriptionConfirm({ loaderData, actionData }: Route.ComponentProps) {
  return <SubscriptionLinkPage purpose="confirm" view={actionData ?? loaderData} />;
}
