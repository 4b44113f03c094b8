import type { ReactNode } from "react";
import { data, useActionData } from "react-router";
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
/** A link on a line of its own: a target at least 24 px high (WCAG 2.5.8). */
export const standaloneTextLink = `${textLink} inline-flex min-h-6 items-center`;

const NEEDS_JAVASCRIPT =
  "Signing in needs JavaScript. Please turn it on for this site, or email us if you cannot.";

/**
 * The account forms post to their own page only when JavaScript never ran (Firebase works in the
 * browser): the page answers with this, and nothing typed is sent anywhere else.
 */
export function needsJavaScriptAction() {
  return data({ needsJavaScript: true }, { status: 400 });
}

/** With JavaScript off, says so up front; after a form was posted without it, says so as an alert. */
export function NeedsJavaScript() {
  const posted = useActionData<typeof needsJavaScriptAction>();
  if (posted?.needsJavaScript) {
    return (
      <p
        role="alert"
        className="mb-5 rounded-md border border-danger/30 bg-danger-soft px-4 py-3 text-sm font-medium text-danger"
      >
        {NEEDS_JAVASCRIPT}
      </p>
    );
  }
  return (
    <noscript>
      <p className="mb-5 rounded-md border border-tick/40 bg-tick-soft px-4 py-3 text-sm">
        {NEEDS_JAVASCRIPT}
      </p>
    </noscript>
  );
}
