import { useEffect } from "react";
import { data, Link, useLocation } from "react-router";
import type { Route } from "./+types/not-found";
import { pageMeta } from "#src/lib/meta.ts";
import { HYDRATE_ON_INTERACTION } from "#src/lib/route-handle.ts";
import { Button } from "#src/ui/button.tsx";
import { Container } from "#src/ui/container.tsx";

export function loader() {
  return data(null, { status: 404 });
}

export const handle = HYDRATE_ON_INTERACTION;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Page not found",
    description: "The page you asked for does not exist.",
    noindex: true,
  });

export default function NotFound() {
  const { pathname } = useLocation();
  useEffect(() => {
    console.error("404 Error: User attempted to access non-existent route:", pathname);
  }, [pathname]);
  return (
    <Container className="flex flex-col items-center py-24 text-center sm:py-32">
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
