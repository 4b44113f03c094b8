import { Link } from "react-router";
import type { Route } from "./+types/privacy-request";
import { SECURITY_FACTS } from "#src/content/security-facts.ts";
import { SITE } from "#src/content/site.ts";
import {
  PrivacyRequestForm,
  privacyRequestReply,
} from "#src/features/privacy/privacy-request-form.tsx";
import { formText } from "#src/lib/form-text.ts";
import { pageMeta } from "#src/lib/meta.ts";
import { IN_SITEMAP } from "#src/lib/route-handle.ts";
import { Container } from "#src/ui/container.tsx";
import { loadContext } from "#src/load-context.ts";

export const handle = IN_SITEMAP;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Privacy request",
    description: `Ask ${SITE.name} for a copy of the personal data it holds about you, its deletion or its correction. Confirmed by a link we email to you; answered within the Privacy Policy's periods.`,
  });

/** The form posted, with JavaScript or without: one answer for every address (decision 030). */
export async function action({ request, context }: Route.ActionArgs) {
  const server = context.get(loadContext);
  const form = await request.formData();
  const values = {
    email: formText(form, "email"),
    name: formText(form, "name"),
    kind: formText(form, "kind"),
    details: formText(form, "details"),
  };
  const result = await server.privacyRequests.submit(values, {
    clientKey: server.clientKey,
    clientAddress: server.clientAddress,
    requestId: server.requestId,
  });
  return privacyRequestReply(result, values);
}

const LINK = "font-semibold text-ledger-dark underline underline-offset-4";

export default function PrivacyRequest({ actionData }: Route.ComponentProps) {
  return (
    <Container className="py-12 sm:py-16">
      <header className="max-w-3xl border-b border-rule pb-8">
        <p className="text-sm font-semibold tracking-[0.14em] text-ledger uppercase">Privacy</p>
        <h1 className="mt-3 font-serif text-4xl font-semibold tracking-tight sm:text-5xl">
          Privacy request
        </h1>
        <p className="mt-5 max-w-2xl leading-relaxed">
          Ask for a copy of the personal data {SITE.name} holds under your email address, for its
          deletion, or for a correction. We confirm every request with a link mailed to that
          address, so that only its owner can make one, and the answer here is the same whether or
          not we hold anything.
        </p>
      </header>
      <div className="mt-10 grid max-w-5xl gap-12 leading-relaxed lg:grid-cols-[minmax(0,1fr)_18rem]">
        <section aria-labelledby="request">
          <h2 id="request" className="sr-only">
            Make a request
          </h2>
          <PrivacyRequestForm reply={actionData} />
        </section>
        <aside className="space-y-6 text-ink/90">
          <section aria-labelledby="when">
            <h2 id="when" className="font-serif text-xl font-semibold tracking-tight text-ink">
              When we answer
            </h2>
            <p className="mt-2">
              A copy or a deletion happens as soon as you confirm. A correction is made by a person
              within {SECURITY_FACTS.privacyShortestResponseDays} days, and every request is
              answered within the periods of section 9 of our{" "}
              <Link to="/privacy-policy#your-rights" className={LINK}>
                Privacy Policy
              </Link>
              .
            </p>
          </section>
          <section aria-labelledby="other-ways">
            <h2
              id="other-ways"
              className="font-serif text-xl font-semibold tracking-tight text-ink"
            >
              Other ways
            </h2>
            <p className="mt-2">
              With a {SITE.name} account, you can download your data and delete the account on{" "}
              <Link to="/account" className={LINK}>
                your account page
              </Link>
              . You can also write to{" "}
              <a href={`mailto:${SITE.contactEmail}`} className={LINK}>
                {SITE.contactEmail}
              </a>
              .
            </p>
          </section>
        </aside>
      </div>
    </Container>
  );
}
