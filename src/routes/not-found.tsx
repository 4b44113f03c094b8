import { useEffect } from "react";
import { data, Link, useLocation } from "react-router";
import type { Route } from "./+types/not-found";
import { pageMeta } from "#src/lib/meta.ts";
import { Button } from "#src/ui/button.tsx";
import { Container } from "#src/ui/container.tsx";

export function loader() {
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Page not found",
    description: "The page you asked for does not exist.",
    noindex: true,
  });

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

export default function NotFound() {
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
