import type { Route } from "./+types/forgot-password";
import { SITE } from "#src/content/site.ts";
import { ForgotPasswordForm } from "#src/features/auth/forgot-password-form.tsx";
import { needsJavaScriptAction } from "#src/features/auth/auth-card.tsx";
import { pageMeta } from "#src/lib/meta.ts";

export const headers: Route.HeadersFunction = () => ({ "Referrer-Policy": "no-referrer" });

export const action = needsJavaScriptAction;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Forgot Password",
    description: `Reset the password of your ${SITE.name} account: we email you a link to choose a new one.`,
  });

export default function ForgotPassword() {
  return <ForgotPasswordForm />;
}
