import { useState } from "react";
import { data, Link } from "react-router";
import type { Route } from "./+types/waitlist";
import { IN_SITEMAP } from "#src/lib/route-handle.ts";
import { SITE } from "#src/content/site.ts";
import { attributionOfLanding, type Attribution } from "#src/features/waitlist/attribution.ts";
import { LANDING_FIELD } from "#src/lib/hydration-protocol.ts";
import { waitlistReply, type WaitlistReply } from "#src/features/waitlist/reply.ts";
import {
  SUBMIT_ERROR,
  WaitlistForm,
  WaitlistThanks,
  type Joined,
  type WaitlistValues,
} from "#src/features/waitlist/waitlist-form.tsx";
import { formText } from "#src/lib/form-text.ts";
import { pageMeta } from "#src/lib/meta.ts";
import { BackButton } from "#src/ui/back-button.tsx";
import { Container } from "#src/ui/container.tsx";
import { loadContext } from "#src/load-context.ts";

export const handle = IN_SITEMAP;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Join the Waitlist",
    description: `Request early access to ${SITE.name}, AI agents that prepare workpapers, cross-reference and draft tax filings inside Excel.`,
  });

/** The page's answer to a post: the one waitlist reply, and what was typed when it failed. */
type ActionResult = WaitlistReply & { values?: WaitlistValues };

/**
 * The form posted without JavaScript. The same service call and the same reply as the JSON API
 * (src/features/waitlist/reply.ts), rendered as this page: the thank-you view, or the form again
 * with its errors and what was typed.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const server = context.get(loadContext);
  const form = await request.formData();
  const fields: Record<string, string> = {
    ...attributionOfPost(request, formText(form, LANDING_FIELD)),
    ...Object.fromEntries(
      [...form.keys()]
        .filter((key) => key !== LANDING_FIELD)
        .map((key) => [key, formText(form, key)]),
    ),
  };
  const result = await server.waitlist.submit(fields, {
    clientKey: server.clientKey,
    requestId: server.requestId,
  });
  const { status, headers, body } = waitlistReply(result);
  if (body.ok) return data<ActionResult>(body, { status, headers });
  const values: WaitlistValues = {
    name: fields.name ?? "",
    email: fields.email ?? "",
    company: fields.company ?? "",
    message: fields.message ?? "",
  };
  // A failure to store is told in the form's words, as the JavaScript form tells it.
  const message = result.kind === "unavailable" ? SUBMIT_ERROR : body.message;
  return data<ActionResult>({ ...body, message, values }, { status, headers });
}

/** The longest landing note read from a form: two addresses of up to 2,000 characters, quoted. */
const LANDING_NOTE_LIMIT = 4_200;

/**
 * The source of a lead posted as a form. Sent before the app was ready, the form carries the visit's
 * landing note (filled in by the page's loader, decision 040), read as the app reads it. Without
 * JavaScript there is no note, and the source is the address of the page the form was sent from
 * (its campaign parameters): the page itself carries none, being the same for every visitor. Only
 * pages of this site count.
 */
function attributionOfPost(request: Request, landing: string): Attribution {
  const origin = new URL(request.url).origin;
  const referer = request.headers.get("referer") ?? "";
  const here = URL.canParse(referer) && new URL(referer).origin === origin ? referer : "";
  let noted: unknown = null;
  if (landing.length > 0 && landing.length <= LANDING_NOTE_LIMIT)
    try {
      noted = JSON.parse(landing);
    } catch {
      // Not the note: the page the form was sent from stands in for it.
    }
  const notedHref: unknown = Array.isArray(noted) ? noted[0] : null;
  const ours =
    typeof notedHref === "string" &&
    URL.canParse(notedHref) &&
    new URL(notedHref).origin === origin;
  return attributionOfLanding(ours ? noted : null, { href: here, referrer: "" });
}

export default function Waitlist({ actionData }: Route.ComponentProps) {
  const [joinedInPlace, setJoinedInPlace] = useState<Joined | null>(null);
  const joined: Joined | null =
    joinedInPlace ??
    (actionData?.ok === true
      ? { paused: actionData.status === "paused", shareUrl: actionData.shareUrl }
      : null);
  const failed = actionData && !actionData.ok ? actionData : undefined;
  return (
    <Container className="py-10 sm:py-16">
      <div className="mx-auto grid max-w-5xl gap-10 lg:grid-cols-[1fr_1.1fr] lg:gap-16">
        <div>
          <BackButton />
          <h1 className="mt-4 font-serif text-4xl font-semibold tracking-tight sm:text-5xl">
            Join the Waitlist
          </h1>
          <p className="mt-5 text-lg leading-relaxed text-ink-soft">
            {SITE.name} is in private beta. Tell us a little about your practice and we will invite
            you as places open, firm by firm, ahead of the next filing season.
          </p>
          <ul className="mt-8 space-y-3 text-[0.95rem]">
            {[
              "AI agents that prepare workpapers inside Excel",
              "Every figure tied back to its source",
              "Your review and sign-off stay in charge",
            ].map((point) => (
              <li key={point} className="flex gap-3">
                <span aria-hidden="true" className="font-bold text-ledger">
                  ✓
                </span>
                {point}
              </li>
            ))}
          </ul>
        </div>
        <section
          aria-labelledby={joined ? "waitlist-done" : "request-access"}
          className="rounded-2xl border border-rule bg-card p-6 shadow-[0_20px_50px_-35px_rgba(15,42,36,0.5)] sm:p-8"
        >
          {joined ? (
            <WaitlistThanks {...joined} />
          ) : (
            <>
              <h2 id="request-access" className="font-serif text-2xl font-semibold">
                Request Access
              </h2>
              <p className="mt-1.5 mb-6 text-ink-soft">
                It takes a minute. Company and use case are optional.
              </p>
              <WaitlistForm
                values={failed?.values}
                errors={failed?.errors}
                formError={failed?.message}
                onJoined={setJoinedInPlace}
              />
            </>
          )}
        </section>
      </div>
      <p className="mt-10 text-center text-[0.95rem] text-ink-soft">
        <Link
          to="/login"
          className="inline-flex min-h-6 items-center font-semibold text-ledger-dark underline-offset-4 hover:underline"
        >
          Already have access? Sign in
        </Link>
      </p>
    </Container>
  );
}
