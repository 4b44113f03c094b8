import { redirect } from "react-router";
import type { Route } from "./+types/signup";
import { SITE } from "#src/content/site.ts";
import { SignupForm } from "#src/features/auth/signup-form.tsx";
import { pageMeta } from "#src/lib/meta.ts";

export function loader({ context }: Route.LoaderArgs) {
  if (context.sessionUser) throw redirect("/");
  return null;
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Create Account",
    description: `Create your ${SITE.name} account with your work email to use AI agents that prepare workpapers in Excel.`,
  });

export default function Signup() {
  return <SignupForm />;
}
