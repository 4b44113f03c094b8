import type { Route } from "./+types/signup";
import { SITE } from "#src/content/site.ts";
import { SignupForm } from "#src/features/auth/signup-form.tsx";
import { needsJavaScriptAction } from "#src/features/auth/auth-card.tsx";
import { requireAnonymous } from "#src/features/auth/require-anonymous.ts";
import { pageMeta } from "#src/lib/meta.ts";

export const loader = requireAnonymous;

export const action = needsJavaScriptAction;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Create Account",
    description: `Create your ${SITE.name} account with your work email to use AI agents that prepare workpapers in Excel.`,
  });

export default function Signup() {
  return <SignupForm />;
}
