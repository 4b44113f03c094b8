import { data } from "react-router";
import type { Route } from "./+types/not-found";
import { pageMeta } from "#src/lib/meta.ts";
import { NotFoundScreen } from "#src/features/errors/error-screens.tsx";

export function loader() {
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Page not found",
    description: "The page you asked for does not exist.",
    noindex: true,
  });

export default function NotFound() {
  return <NotFoundScreen />;
}
