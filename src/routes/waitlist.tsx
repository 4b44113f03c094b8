import { useState } from "react";
import { data, Link } from "react-router";
import type { Route } from "./+types/waitlist";
import { SITE } from "#src/content/site.ts";
import { attributionFrom, type Attribution } from "#src/features/waitlist/attribution.ts";
import type { FieldErrors } from "#src/features/waitlist/schema.ts";
import {
  SUBMIT_ERROR,
  WaitlistForm,
  WaitlistThanks,
  type WaitlistValues,
} from "#src/features/waitlist/waitlist-form.tsx";
import { formText } from "#src/lib/form-text.ts";
import { pageMeta } from "#src/lib/meta.ts";
import { BackButton } from "#src/ui/back-button.tsx";
import { Container } from "#src/ui/container.tsx";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Join the Waitlist",
    description: `Request early access to ${SITE.name}, AI agents that prepare workpapers, cross-reference and draft tax filings inside Excel.`,
  });

type ActionResult =
  { ok: true } | { ok: false; errors: FieldErrors; values: WaitlistValues; message: string };

/** The form posted without JavaScript: the same service as the JSON API, answered with this page. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  // Without JavaScript the source of the lead is the address of the page the form was sent from
  // (its campaign parameters). The page itself carries none: it is the same for every visitor.
  const fields: Record<string, string> = {
    ...attributionOfPost(request),
    ...Object.fromEntries([...form.keys()].map((key) => [key, formText(form, key)])),
  };
  const result = await context.waitlist.submit(fields, {
    clientKey: context.clientKey,
    requestId: context.requestId,
  });
  const values: WaitlistValues = {
    name: fields.name ?? "",
    email: fields.email ?? "",
    company: fields.company ?? "",
    message: fields.message ?? "",
  };
  switch (result.kind) {
    case "created":
    case "ignored":
      return data<ActionResult>({ ok: true }, { status: 201 });
    case "exists":
      return data<ActionResult>({ ok: true }, { status: 200 });
    case "invalid":
      return data<ActionResult>(
        {
          ok: false,
          errors: result.fieldErrors,
          values,
          message: "Please correct the highlighted fields.",
        },
        { status: 422 },
      );
    case "rate-limited":
      return data<ActionResult>(
        {
          ok: false,
          errors: {},
          values,
          message: "Too many requests. Please wait a minute and try again.",
        },
        { status: 429, headers: { "Retry-After": String(result.retryAfterSeconds) } },
      );
    case "unavailable":
      return data<ActionResult>(
        { ok: false, errors: {}, values, message: SUBMIT_ERROR },
        { status: 503, headers: { "Retry-After": "30" } },
      );
  }
}

/** utm_* and the path of the same-origin page a form was posted from, by its Referer. */
function attributionOfPost(request: Request): Attribution {
  const referer = request.headers.get("referer");
  if (!referer) return {};
  try {
    const page = new URL(referer);
    return page.origin === new URL(request.url).origin ? attributionFrom(page, null) : {};
  } catch {
    return {};
  }
}

export default function Waitlist({ actionData }: Route.ComponentProps) {
  const [joinedInPlace, setJoinedInPlace] = useState(false);
  const joined = joinedInPlace || actionData?.ok === true;
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
            <WaitlistThanks />
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
                onJoined={() => setJoinedInPlace(true)}
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
