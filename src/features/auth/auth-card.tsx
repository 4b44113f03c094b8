import type { ReactNode } from "react";
import { BackButton } from "#src/ui/back-button.tsx";
import { Container } from "#src/ui/container.tsx";

/** The frame every account page shares: Back, a title, a short line, the form, links below. */
export function AuthCard({
  title,
  description,
  children,
  footer,
  back = true,
  titleRef,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  back?: boolean;
  titleRef?: React.Ref<HTMLHeadingElement>;
}) {
  return (
    <Container className="flex justify-center py-10 sm:py-16">
      <div className="w-full max-w-md">
        {back ? <BackButton /> : null}
        <div className="mt-3 rounded-2xl border border-rule bg-card p-6 shadow-[0_20px_50px_-35px_rgba(15,42,36,0.5)] sm:p-8">
          <h1
            ref={titleRef}
            tabIndex={-1}
            className="font-serif text-3xl font-semibold tracking-tight outline-none"
          >
            {title}
          </h1>
          {description ? (
            <div className="mt-2 leading-relaxed text-ink-soft">{description}</div>
          ) : null}
          <div className="mt-7">{children}</div>
        </div>
        {footer ? (
          <div className="mt-6 space-y-2 text-center text-[0.95rem] text-ink-soft">{footer}</div>
        ) : null}
      </div>
    </Container>
  );
}

export const textLink = "font-semibold text-ledger-dark underline-offset-4 hover:underline";

/** Shown only with JavaScript off: signing in runs Firebase in the browser. */
export function NeedsJavaScript() {
  return (
    <noscript>
      <p className="mb-5 rounded-md border border-tick/40 bg-tick-soft px-4 py-3 text-sm">
        Signing in needs JavaScript. Please turn it on for this site, or email us if you cannot.
      </p>
    </noscript>
  );
}
