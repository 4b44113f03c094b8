import { redirect } from "react-router";
import type { Route } from "./+types/login";
import { SITE } from "#src/content/site.ts";
import { LoginForm } from "#src/features/auth/login-form.tsx";
import { needsJavaScriptAction } from "#src/features/auth/auth-card.tsx";
import { pageMeta } from "#src/lib/meta.ts";
import { HYDRATE_ON_INTERACTION } from "#src/lib/route-handle.ts";

export function loader({ context }: Route.LoaderArgs) {
  if (context.sessionUser) throw redirect("/");
  return null;
}

export const handle = HYDRATE_ON_INTERACTION;

export const action = needsJavaScriptAction;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Sign In",
    description: `Sign in to your ${SITE.name} account with your email and password to continue your private beta work.`,
  });

export default function Login() {
  return <LoginForm />;
}
