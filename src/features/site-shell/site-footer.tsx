import { Fragment } from "react";
import { Link } from "react-router";
import { addressLines, FOOTER_LINKS, SITE } from "#src/content/site.ts";
import { BrandMark } from "#src/ui/brand-mark.tsx";
import { Container } from "#src/ui/container.tsx";

export function SiteFooter() {
  return (
    <footer className="border-t border-rule bg-ink text-paper render-when-near">
      <Container className="grid gap-10 py-14 sm:grid-cols-2 lg:grid-cols-[1.4fr_1fr_1fr_1fr]">
        <div className="max-w-sm">
          <p className="flex items-center gap-2.5 font-serif text-xl font-semibold">
            <BrandMark className="size-7" />
            {SITE.name}
          </p>
          <p className="mt-4 text-[0.95rem] leading-relaxed text-paper/80">{SITE.tagline}</p>
        </div>
        {FOOTER_LINKS.map((group) => (
          <nav key={group.id} aria-labelledby={group.id}>
            <h2
              id={group.id}
              className="text-xs font-semibold tracking-[0.14em] text-paper/70 uppercase"
            >
              {group.heading}
            </h2>
            <ul className="mt-3 space-y-1">
              {group.links.map((link) => (
                <li key={link.to}>
                  <Link
                    to={link.to}
                    className="inline-flex min-h-8 items-center rounded-sm text-[0.95rem] text-paper/90 underline-offset-4 hover:text-white hover:underline"
                  >
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
        <div>
          <h2 className="text-xs font-semibold tracking-[0.14em] text-paper/70 uppercase">
            Office
          </h2>
          <address className="mt-3 text-[0.95rem] leading-relaxed text-paper/90 not-italic">
            {[SITE.legalEntity, ...addressLines()].map((line, i) => (
              <Fragment key={line}>
                {i > 0 ? <br /> : null}
                {line}
              </Fragment>
            ))}
          </address>
        </div>
      </Container>
      <Container className="border-t border-paper/15 py-6 text-sm text-paper/70">
        <p>
          © {SITE.copyrightYear} {SITE.legalEntity} All rights reserved.
        </p>
      </Container>
    </footer>
  );
}
