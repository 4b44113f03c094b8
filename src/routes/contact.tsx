import { Fragment } from "react";
import { Link } from "react-router";
import type { Route } from "./+types/contact";
import { IN_SITEMAP } from "#src/lib/route-handle.ts";
import { addressLines, SITE } from "#src/content/site.ts";
import { pageMeta } from "#src/lib/meta.ts";
import { Container } from "#src/ui/container.tsx";

export const handle = IN_SITEMAP;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Contact",
    description: `Questions about ${SITE.name}, the private beta or your account? Email ${SITE.contactEmail}.`,
  });

export default function Contact() {
  return (
    <Container className="py-16 sm:py-24">
      <div className="grid gap-12 lg:grid-cols-[1.3fr_1fr]">
        <div className="max-w-2xl">
          <p className="text-sm font-semibold tracking-[0.14em] text-ledger uppercase">Contact</p>
          <h1 className="mt-3 font-serif text-4xl font-semibold tracking-tight sm:text-5xl">
            Get in Touch
          </h1>
          <p className="mt-6 text-lg leading-relaxed text-ink-soft">
            Questions about {SITE.name}, the private beta, your account or a contract? Email us at
            the address below. A person on our team checks this inbox and replies as soon as they
            see your message.
          </p>
          <a
            href={`mailto:${SITE.contactEmail}`}
            className="mt-8 inline-flex min-h-12 items-center gap-3 rounded-lg border border-rule bg-card px-5 text-lg font-semibold text-ledger-dark underline-offset-4 shadow-sm hover:border-ledger hover:underline"
          >
            <svg
              viewBox="0 0 24 24"
              aria-hidden="true"
              className="size-5"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
            >
              <rect x="3" y="5" width="18" height="14" rx="2" />
              <path d="M3.5 6.5l8.5 6.5 8.5-6.5" strokeLinejoin="round" />
            </svg>
            {SITE.contactEmail}
          </a>
        </div>
        <dl className="space-y-6 self-start rounded-xl border border-rule bg-card p-7 text-[0.95rem]">
          <div>
            <dt className="font-semibold">Support hours</dt>
            <dd className="mt-1 text-ink-soft">{SITE.supportHours}</dd>
          </div>
          <div>
            <dt className="font-semibold">Postal address</dt>
            <dd className="mt-1 text-ink-soft">
              <address className="not-italic">
                {[SITE.legalEntity, ...addressLines()].map((line, i) => (
                  <Fragment key={line}>
                    {i > 0 ? <br /> : null}
                    {line}
                  </Fragment>
                ))}
              </address>
            </dd>
          </div>
          <div>
            <dt className="font-semibold">Privacy and data requests</dt>
            <dd className="mt-1 text-ink-soft">
              Use the{" "}
              <Link
                to="/privacy-request"
                className="font-semibold text-ledger-dark underline underline-offset-4"
              >
                privacy request form
              </Link>
              , or write to the same address with “Privacy request” in the subject line.
            </dd>
          </div>
        </dl>
      </div>
    </Container>
  );
}
