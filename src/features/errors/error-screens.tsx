/**
 * What the visitor sees when a page cannot be shown, by status: the not-found screen (404),
 * "you may not see this" (401, 403), a refusal of the request (other 4xx), and an apology with the
 * request's id (5xx). The root error boundary picks one; the not-found route uses the first.
 */
import { useEffect, type ReactNode } from "react";
import { Link, useLocation } from "react-router";
import { SITE } from "#src/content/site.ts";
import { Button } from "#src/ui/button.tsx";
import { Container } from "#src/ui/container.tsx";

const LOG_MESSAGE = "404 Error: User attempted to access non-existent route:";
/** Set by the inline script when it has logged the path the page was loaded with. */
const LOGGED_ON_LOAD = "tieoutNotFoundLogged";

/*
 * The path is logged as the page loads, before any JavaScript of the app (which waits for the
 * visitor's first interaction): one constant inline script, so the CSP allows it by its hash.
 */
const LOG_ON_LOAD = `console.error(${JSON.stringify(LOG_MESSAGE)},location.pathname);window.${LOGGED_ON_LOAD}=location.pathname;`;

declare global {
  interface Window {
    [LOGGED_ON_LOAD]?: string;
  }
}

/** The not-found screen; it logs the path that was asked for as the page loads. */
export function NotFoundScreen({ title = false }: { title?: boolean }) {
  const { pathname } = useLocation();
  useEffect(() => {
    // After a client-side page change no inline script runs: the app logs it.
    if (window[LOGGED_ON_LOAD] === pathname) {
      delete window[LOGGED_ON_LOAD];
      return;
    }
    console.error(LOG_MESSAGE, pathname);
  }, [pathname]);
  return (
    <Container className="flex flex-col items-center py-24 text-center sm:py-32">
      {title ? <title>{`Page not found | ${SITE.name}`}</title> : null}
      <script dangerouslySetInnerHTML={{ __html: LOG_ON_LOAD }} />
      <p className="font-serif text-7xl font-semibold text-ledger tabular-nums sm:text-8xl">
        <span className="double-rule">404</span>
      </p>
      <h1 className="mt-8 font-serif text-3xl font-semibold tracking-tight">
        Oops! Page not found
      </h1>
      <p className="mt-3 max-w-md text-ink-soft">
        The address may be mistyped, or the page may have moved. Nothing is lost; start again from
        the home page.
      </p>
      <Button asChild className="mt-8">
        <Link to="/">Return to Home</Link>
      </Button>
    </Container>
  );
}

/** The frame every status screen shares: its title, the status, a heading, a sentence, actions. */
function StatusScreen({
  title,
  status,
  heading,
  children,
  secondary,
}: {
  title: string;
  status: number;
  heading: string;
  children: ReactNode;
  /** A second way on, beside "Return to Home". */
  secondary?: ReactNode;
}) {
  return (
    <Container className="py-24 sm:py-32">
      <title>{`${title} | ${SITE.name}`}</title>
      <p className="font-serif text-5xl font-semibold text-ledger">{status}</p>
      <h1 className="mt-4 font-serif text-3xl font-semibold">{heading}</h1>
      {children}
      <div className="mt-8 flex flex-wrap gap-3">
        <Button asChild>
          <Link to="/">Return to Home</Link>
        </Button>
        {secondary}
      </div>
    </Container>
  );
}

const contactLink = (
  <a className="underline" href={`mailto:${SITE.contactEmail}`}>
    {SITE.contactEmail}
  </a>
);

/** 401 and 403: the page exists, and this visitor may not see it. */
export function ForbiddenScreen({ status, message }: { status: number; message?: string }) {
  return (
    <StatusScreen
      title="Not allowed"
      status={status}
      heading="You may not see this page"
      secondary={
        <Button asChild variant="secondary">
          <Link to="/login">Sign in with another account</Link>
        </Button>
      }
    >
      <p className="mt-3 max-w-prose text-ink-soft">
        {message ?? "This page is not open to the account you are signed in with."} If you think it
        should be, sign in with another account or write to {contactLink}.
      </p>
    </StatusScreen>
  );
}

/** Any other 4xx: the request itself could not be answered (not our failure). */
export function RefusedScreen({ status, message }: { status: number; message?: string }) {
  return (
    <StatusScreen
      title="Request not answered"
      status={status}
      heading="This request could not be answered"
    >
      <p className="mt-3 max-w-prose text-ink-soft">
        {message ?? "The address or the form sent was not one this page can answer."} Start again
        from the home page.
      </p>
    </StatusScreen>
  );
}

/** 5xx: our failure. The request id lets the visitor quote it and us find the log line. */
export function FailureScreen({
  status,
  message,
  requestId,
}: {
  status: number;
  message?: string;
  requestId?: string;
}) {
  return (
    <StatusScreen
      title="Something went wrong"
      status={status}
      heading="Sorry, this page did not load"
    >
      <p className="mt-3 max-w-prose text-ink-soft">
        {message ?? "Something went wrong on our side."} Your information is safe; please try again
        in a moment, or write to {contactLink} if it keeps happening.
      </p>
      {requestId ? (
        <p className="mt-3 text-sm text-ink-soft">
          Request reference: <code className="font-mono">{requestId}</code>
        </p>
      ) : null}
    </StatusScreen>
  );
}
