import type { Route } from "./+types/waitlist-answers";
import { SITE } from "#src/content/site.ts";
import { readAnswersForm } from "#src/features/waitlist/answers.ts";
import { QuestionsForm } from "#src/features/waitlist/questions-form.tsx";
import type { Answers } from "#src/content/qualifying-questions.ts";
import {
  MAIL_LINK_HEADERS,
  mailLinkMeta,
  readMailLink,
  spendMailLink,
} from "#src/lib/mail-link.ts";
import { loadContext } from "#src/load-context.ts";
import { GoneLinkCard, MailLinkCard } from "#src/ui/mail-link-card.tsx";

/**
 * The qualifying questions behind their link (decision 043): the confirmation page's form posts
 * here, and later waitlist news links here. GET shows the answers so far in the form and changes
 * nothing; its POST saves them. The link is not spent by saving: its owner may come back.
 */
export const headers: Route.HeadersFunction = () => MAIL_LINK_HEADERS;
export const meta: Route.MetaFunction = (args) =>
  mailLinkMeta(args, {
    title: "Tell us about your firm",
    description: `Optional questions for the ${SITE.name} waitlist.`,
  });

/** After the POST the page shows the outcome; the link's page is not asked for again. */
export const shouldRevalidate = () => false;

const UNAVAILABLE = "Your answers cannot be saved for a moment. Please try again in a minute.";

type View =
  | { kind: "ask"; maskedEmail: string; answers: Answers; token: string; message?: string }
  | { kind: "saved" }
  | { kind: "gone" };

export function loader({ request, context }: Route.LoaderArgs) {
  const server = context.get(loadContext);
  return readMailLink(request, server, (token) => server.waitlist.checkAnswers(token), UNAVAILABLE);
}

export function action({ request, context }: Route.ActionArgs) {
  const server = context.get(loadContext);
  return spendMailLink(
    request,
    server,
    async (token, _client, form): Promise<View | { kind: "unavailable" }> => {
      const read = readAnswersForm(form);
      if (!read.ok) {
        // Nothing is saved; the form comes back with what was saved before, and why.
        const live = await server.waitlist.checkAnswers(token).catch(() => undefined);
        if (live === undefined) return { kind: "unavailable" };
        if (!live) return { kind: "gone" };
        return { kind: "ask", ...live, token, message: read.message };
      }
      const saved = await server.waitlist.saveAnswers(token, read.answers);
      return saved === "saved" ? { kind: "saved" } : { kind: saved };
    },
    UNAVAILABLE,
    (view) => (view.kind === "ask" ? 400 : 200),
  );
}

export default function WaitlistAnswers({ loaderData, actionData }: Route.ComponentProps) {
  const view: View = actionData ?? loaderData;
  const back = { to: "/", label: `Go to ${SITE.name}` };
  switch (view.kind) {
    case "ask":
      return (
        <MailLinkCard
          title="Tell us about your firm"
          back={back}
          more={<QuestionsForm token={view.token} answers={view.answers} message={view.message} />}
        >
          These answers, for <strong className="text-ink">{view.maskedEmail}</strong>, help us
          choose the firms to invite first. Each one is optional.
        </MailLinkCard>
      );
    case "saved":
      return (
        <MailLinkCard title="Thank you: your answers are saved" back={back}>
          They help us choose the firms to invite first. To change them, use the link in our next
          mail about the waitlist.
        </MailLinkCard>
      );
    case "gone":
      return <GoneLinkCard back={back} />;
  }
}
