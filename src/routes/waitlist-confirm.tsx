import type { Route } from "./+types/waitlist-confirm";
import {
  actOnMailLink,
  loadMailLink,
  MailLinkPage,
  mailLinkMeta,
} from "#src/features/waitlist/mail-link.tsx";
import { MAIL_LINK_HEADERS } from "#src/lib/mail-link.ts";
import { loadContext } from "#src/load-context.ts";

/** The confirm link of a waitlist mail: GET shows one button, only its POST acts (decision 023). */
export const headers: Route.HeadersFunction = () => MAIL_LINK_HEADERS;
export const meta: Route.MetaFunction = (args) => mailLinkMeta("confirm", args);

/** After the button's POST the page shows the outcome; the used token's page is not asked for again. */
export const shouldRevalidate = () => false;

export function loader({ request, context }: Route.LoaderArgs) {
  return loadMailLink("confirm", request, context.get(loadContext));
}

export function action({ request, context }: Route.ActionArgs) {
  return actOnMailLink("confirm", request, context.get(loadContext));
}

export default function WaitlistConfirm({ loaderData, actionData }: Route.ComponentProps) {
  return <MailLinkPage purpose="confirm" view={actionData ?? loaderData} />;
}
