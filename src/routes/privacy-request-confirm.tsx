import type { Route } from "./+types/privacy-request-confirm";
import {
  actOnConfirmLink,
  ConfirmLinkPage,
  loadConfirmLink,
} from "#src/features/privacy/confirm-link.tsx";
import { MAIL_LINK_HEADERS, mailLinkMeta } from "#src/lib/mail-link.ts";
import { loadContext } from "#src/load-context.ts";

/** The link of a privacy request's mail: GET shows one button, only its POST acts (decision 030). */
export const headers: Route.HeadersFunction = () => MAIL_LINK_HEADERS;
export const meta: Route.MetaFunction = (args) =>
  mailLinkMeta(args, {
    title: "Confirm your privacy request",
    description:
      "Confirm a privacy request made for this address: a copy, a deletion or a correction.",
  });

/** After the button's POST the page shows the outcome; the used token's page is not asked for again. */
export const shouldRevalidate = () => false;

export function loader({ request, context }: Route.LoaderArgs) {
  return loadConfirmLink(request, context.get(loadContext));
}

export function action({ request, context }: Route.ActionArgs) {
  return actOnConfirmLink(request, context.get(loadContext));
}

export default function PrivacyRequestConfirm({ loaderData, actionData }: Route.ComponentProps) {
  return <ConfirmLinkPage view={actionData ?? loaderData} />;
}
