import { Link } from "react-router";
import type { Route } from "./+types/subprocessors";
import { formatDate } from "#src/content/dates.ts";
import { SITE } from "#src/content/site.ts";
import {
  OBJECTION_DAYS,
  SUBPROCESSOR_CHANGES,
  SUBPROCESSOR_FEED_PATH,
  SUBPROCESSOR_NOTICE_DAYS,
  SUBPROCESSORS,
  SUBPROCESSORS_LISTED_ON,
} from "#src/content/subprocessors.ts";
import {
  SubprocessorChanges,
  SubprocessorTable,
} from "#src/features/subprocessors/subprocessor-list.tsx";
import { SubscribeForm, subscribeReply } from "#src/features/subprocessors/subscribe-form.tsx";
import { formText } from "#src/lib/form-text.ts";
import { pageMeta } from "#src/lib/meta.ts";
import { usePublicEnv } from "#src/lib/public-env.ts";
import { IN_SITEMAP } from "#src/lib/route-handle.ts";
import { Container } from "#src/ui/container.tsx";
import { loadContext } from "#src/load-context.ts";

export const handle = IN_SITEMAP;

const FEED_TITLE = `${SITE.name} sub-processor changes`;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Sub-processors",
    description: `The companies that process personal data for ${SITE.name}: what each does, the data it receives and where, every change with its dates, an Atom feed and email notice.`,
    alternate: { type: "application/atom+xml", title: FEED_TITLE, path: SUBPROCESSOR_FEED_PATH },
  });

/** The subscription form posted, with JavaScript or without: one answer for every address. */
export async function action({ request, context }: Route.ActionArgs) {
  const server = context.get(loadContext);
  const email = formText(await request.formData(), "email");
  const result = await server.subprocessors.subscribe(email, {
    clientKey: server.clientKey,
    requestId: server.requestId,
  });
  return subscribeReply(result, email);
}

const LINK = "font-semibold text-ledger-dark underline underline-offset-4";

export default function Subprocessors({ actionData }: Route.ComponentProps) {
  const { siteUrl } = usePublicEnv();
  return (
    <Container className="py-12 sm:py-16">
      <header className="max-w-3xl border-b border-rule pb-8">
        <p className="text-sm font-semibold tracking-[0.14em] text-ledger uppercase">Trust</p>
        <h1 className="mt-3 font-serif text-4xl font-semibold tracking-tight sm:text-5xl">
          Sub-processors
        </h1>
        <p className="mt-5 max-w-2xl leading-relaxed">
          These companies process personal data for {SITE.name}, each under a written contract that
          holds it to our{" "}
          <Link to="/dpa#sub-processors" className={LINK}>
            Data Processing Addendum
          </Link>
          . The list has been published since {formatDate(SUBPROCESSORS_LISTED_ON)}; every change is
          announced here, by email and in a feed at least {SUBPROCESSOR_NOTICE_DAYS} days before it
          takes effect.
        </p>
      </header>
      <div className="mt-10 max-w-4xl space-y-12 leading-relaxed text-ink/90">
        <section aria-labelledby="list">
          <h2 id="list" className="font-serif text-2xl font-semibold tracking-tight text-ink">
            Who processes data for us
          </h2>
          <div className="mt-4">
            <SubprocessorTable list={SUBPROCESSORS} changes={SUBPROCESSOR_CHANGES} />
          </div>
        </section>
        <section aria-labelledby="changes">
          <h2 id="changes" className="font-serif text-2xl font-semibold tracking-tight text-ink">
            Changes
          </h2>
          <div className="mt-4">
            <SubprocessorChanges list={SUBPROCESSORS} changes={SUBPROCESSOR_CHANGES} />
          </div>
        </section>
        <section aria-labelledby="notify" className="space-y-4">
          <h2 id="notify" className="font-serif text-2xl font-semibold tracking-tight text-ink">
            Get notice of changes
          </h2>
          <p>
            Subscribe and we email you each change on the day it is announced. We first send a mail
            to confirm the address; nothing else is sent until you do. Feed readers can follow{" "}
            <a href={`${siteUrl}${SUBPROCESSOR_FEED_PATH}`} className={LINK}>
              the Atom feed of changes
            </a>
            .
          </p>
          <SubscribeForm reply={actionData} />
        </section>
        <section aria-labelledby="objections">
          <h2 id="objections" className="font-serif text-2xl font-semibold tracking-tight text-ink">
            Objecting to a change
          </h2>
          <p className="mt-4">
            A customer under the DPA may object to a new sub-processor on reasonable grounds
            relating to data protection within {OBJECTION_DAYS} days of the notice, by writing to{" "}
            <a href={`mailto:${SITE.contactEmail}`} className={LINK}>
              {SITE.contactEmail}
            </a>
            . Section 5 of the DPA says how such an objection is resolved.
          </p>
        </section>
      </div>
    </Container>
  );
}
