import type { Route } from "./+types/login";
import { SITE } from "#src/content/site.ts";
import { LoginForm } from "#src/features/auth/login-form.tsx";
import { needsJavaScriptAction } from "#src/features/auth/auth-card.tsx";
import { requireAnonymous } from "#src/features/auth/require-anonymous.ts";
import { pageMeta } from "#src/lib/meta.ts";

export const loader = requireAnonymous;

export const action = needsJavaScriptAction;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Sign In",
    description: `Sign in to your ${SITE.name} account with your email and password to continue your private beta work.`,
  });

export default function Login() {
  return <LoginForm />;
}
