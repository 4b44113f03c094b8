import type { ReactNode } from "react";
import { Link } from "react-router";
import { SITE } from "#src/content/site.ts";
import { BrandMark } from "#src/ui/brand-mark.tsx";
import { Button } from "#src/ui/button.tsx";
import { Container } from "#src/ui/container.tsx";

/**
 * The fixed header. `authSlot` is composed in by the root route; its box keeps a fixed width so the
 * header never shifts when the sign-in state becomes known.
 */
export function SiteHeader({ authSlot }: { authSlot: ReactNode }) {
  return (
    <header className="group fixed inset-x-0 top-0 z-40 border-b border-rule/80 bg-paper/95">
      <Container className="flex h-16 items-center justify-between gap-2 sm:gap-3">
        <Link
          to="/"
          className="flex min-h-11 items-center gap-2 rounded-md font-serif text-[1.2rem] font-semibold tracking-tight sm:gap-2.5 sm:text-[1.35rem]"
        >
          <BrandMark className="size-7" />
          {/* A 320 px phone has no sure room for the name beside Menu and Waitlist: signed in,
              the mark stands alone there and the name is read, not shown. */}
          <span className="max-sm:group-has-[[data-signed-in]]:sr-only">{SITE.name}</span>
          <span className="sr-only">, home</span>
        </Link>
        <nav aria-label="Account" className="flex items-center gap-1 sm:gap-3">
          <div className="flex min-w-[5.25rem] justify-end sm:min-w-[5.5rem]">{authSlot}</div>
          <Button asChild size="sm">
            <Link to="/waitlist">
              <span className="sm:hidden">Waitlist</span>
              <span className="hidden sm:inline">Join Waitlist</span>
            </Link>
          </Button>
        </nav>
      </Container>
    </header>
  );
}
