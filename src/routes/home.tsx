import { Link } from "react-router";
import type { Route } from "./+types/home";
import { IN_SITEMAP } from "#src/lib/route-handle.ts";
import { HOME } from "#src/content/home.ts";
import { SITE } from "#src/content/site.ts";
import { DemoVideo } from "#src/features/demo-video/demo-video.tsx";
import { LedgerCard } from "#src/features/home/ledger-card.tsx";
import { pageMeta } from "#src/lib/meta.ts";
import { usePublicEnv } from "#src/lib/public-env.ts";
import { Button } from "#src/ui/button.tsx";
import { Container } from "#src/ui/container.tsx";

export const handle = IN_SITEMAP;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: `${SITE.name}: AI agents that prepare your workpapers in Excel`,
    description: SITE.description,
  });

export default function Home() {
  const env = usePublicEnv();
  return (
    <>
      <OrganizationData siteUrl={env.siteUrl} />
      <section
        aria-labelledby="hero-title"
        className="relative overflow-hidden border-b border-rule"
      >
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-0 bg-[linear-gradient(to_right,rgba(15,42,36,0.045)_1px,transparent_1px),linear-gradient(to_bottom,rgba(15,42,36,0.045)_1px,transparent_1px)] [mask-image:linear-gradient(to_bottom,black,transparent_85%)] bg-[size:56px_32px]"
        />
        <Container className="relative grid items-center gap-12 py-16 sm:py-20 lg:grid-cols-[1.1fr_1fr] lg:gap-16 lg:py-28">
          <div>
            <p className="inline-flex items-center gap-2 rounded-full border border-ledger/25 bg-ledger-soft px-3 py-1 text-[0.8rem] font-medium text-ledger-dark">
              <span aria-hidden="true" className="size-1.5 rounded-full bg-ledger" />
              {HOME.eyebrow}
            </p>
            <h1
              id="hero-title"
              className="mt-6 font-serif text-[2.35rem] leading-[1.08] font-semibold tracking-tight text-balance sm:text-5xl lg:text-[3.5rem]"
            >
              {HOME.headline}
            </h1>
            <p className="mt-6 max-w-xl text-lg leading-relaxed text-ink-soft">{HOME.lede}</p>
            <div className="mt-9 flex flex-wrap items-center gap-3">
              <Button asChild size="lg">
                <Link to="/waitlist">See it in action</Link>
              </Button>
              <Button asChild size="lg" variant="secondary">
                <a href="#demo">Watch the demo</a>
              </Button>
            </div>
          </div>
          <LedgerCard />
        </Container>
      </section>

      <section
        id="demo"
        aria-labelledby="demo-title"
        className="scroll-mt-20 py-16 render-when-near sm:py-24"
      >
        <Container>
          <div className="max-w-2xl">
            <p className="text-sm font-semibold tracking-[0.14em] text-ledger uppercase">
              The demo
            </p>
            <h2
              id="demo-title"
              className="mt-3 font-serif text-3xl font-semibold tracking-tight sm:text-4xl"
            >
              From a raw trial balance to a reviewed workpaper
            </h2>
            <p className="mt-4 text-lg leading-relaxed text-ink-soft">
              Watch the agent work through a client file the way a senior would: categorize, adjust,
              tie out, and leave a trail a reviewer can follow.
            </p>
          </div>
          <div className="mt-10">
            <DemoVideo embed={env.demoEmbed} />
          </div>
        </Container>
      </section>

      <section
        aria-labelledby="features-title"
        className="border-y border-rule bg-card py-16 render-when-near sm:py-24"
      >
        <Container>
          <h2
            id="features-title"
            className="max-w-2xl font-serif text-3xl font-semibold tracking-tight sm:text-4xl"
          >
            End-to-end accounting automation, inside Excel
          </h2>
          <ul className="mt-12 grid gap-6 md:grid-cols-3">
            {HOME.features.map((feature, i) => (
              <li key={feature.id} className="rounded-xl border border-rule bg-paper p-7">
                <p
                  aria-hidden="true"
                  className="font-serif text-sm font-semibold text-tick-ink tabular-nums"
                >
                  {String(i + 1).padStart(2, "0")}
                </p>
                <h3 className="mt-3 text-xl font-semibold">{feature.title}</h3>
                <p className="mt-3 leading-relaxed text-ink-soft">{feature.body}</p>
              </li>
            ))}
          </ul>
        </Container>
      </section>

      <section aria-labelledby="how-title" className="py-16 render-when-near sm:py-24">
        <Container className="grid gap-12 lg:grid-cols-[1fr_1.4fr]">
          <div>
            <h2
              id="how-title"
              className="font-serif text-3xl font-semibold tracking-tight sm:text-4xl"
            >
              How a workpaper gets done
            </h2>
            <p className="mt-4 text-lg leading-relaxed text-ink-soft">
              The agent prepares; your team reviews. Each step is written into the workbook, so the
              file explains itself at review and next season.
            </p>
          </div>
          <ol className="space-y-5">
            {HOME.steps.map((step, i) => (
              <li key={step.title} className="flex gap-5 rounded-xl border border-rule bg-card p-6">
                <span
                  aria-hidden="true"
                  className="flex size-10 shrink-0 items-center justify-center rounded-full bg-ledger-soft font-serif text-lg font-semibold text-ledger-dark"
                >
                  {i + 1}
                </span>
                <div>
                  <h3 className="text-lg font-semibold">{step.title}</h3>
                  <p className="mt-1.5 leading-relaxed text-ink-soft">{step.body}</p>
                </div>
              </li>
            ))}
          </ol>
        </Container>
      </section>

      <section
        aria-labelledby="trust-title"
        className="bg-ink py-16 text-paper render-when-near sm:py-24"
      >
        <Container>
          <h2
            id="trust-title"
            className="max-w-2xl font-serif text-3xl font-semibold tracking-tight sm:text-4xl"
          >
            Made for work that carries your signature
          </h2>
          <ul className="mt-12 grid gap-10 md:grid-cols-3">
            {HOME.assurances.map((item) => (
              <li key={item.title} className="border-t border-paper/20 pt-6">
                <h3 className="text-lg font-semibold">{item.title}</h3>
                <p className="mt-2 leading-relaxed text-paper/80">{item.body}</p>
              </li>
            ))}
          </ul>
          <p className="mt-12 text-paper/80">
            Read our{" "}
            <Link to="/dpa" className="font-medium text-white underline underline-offset-4">
              data processing addendum
            </Link>{" "}
            and{" "}
            <Link
              to="/privacy-policy"
              className="font-medium text-white underline underline-offset-4"
            >
              privacy policy
            </Link>
            .
          </p>
        </Container>
      </section>

      <section aria-labelledby="cta-title" className="py-16 render-when-near sm:py-24">
        <Container>
          <div className="flex flex-col items-start gap-6 rounded-2xl border border-ledger/20 bg-ledger-soft px-7 py-12 sm:px-12 lg:flex-row lg:items-center lg:justify-between">
            <div className="max-w-xl">
              <h2 id="cta-title" className="font-serif text-3xl font-semibold tracking-tight">
                Join the private beta
              </h2>
              <p className="mt-3 text-lg leading-relaxed text-ink-soft">
                We are onboarding firms in small groups ahead of tax season. Tell us about your
                practice and we will be in touch.
              </p>
            </div>
            <Button asChild size="lg">
              <Link to="/waitlist">Request early access</Link>
            </Button>
          </div>
        </Container>
      </section>
    </>
  );
}

function OrganizationData({ siteUrl }: { siteUrl: string }) {
  const { address } = SITE;
  const data = {
    "@context": "https://schema.org",
    "@type": "Organization",
    name: SITE.name,
    legalName: SITE.legalEntity,
    url: `${siteUrl}/`,
    logo: `${siteUrl}/icon-512.png`,
    email: SITE.contactEmail,
    address: {
      "@type": "PostalAddress",
      streetAddress: address.street,
      addressLocality: address.city,
      addressRegion: address.region,
      postalCode: address.postalCode,
      addressCountry: address.country,
    },
  };
  // JSON-LD is data, not script: browsers never execute it, so it needs no CSP nonce.
  return (
    <script
      type="application/ld+json"
      dangerouslySetInnerHTML={{ __html: JSON.stringify(data).replace(/</g, "\\u003c") }}
    />
  );
}
