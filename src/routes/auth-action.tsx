import { useSearchParams } from "react-router";
import type { Route } from "./+types/auth-action";
import { SITE } from "#src/content/site.ts";
import { EmailAction } from "#src/features/auth/email-action.tsx";
import { pageMeta } from "#src/lib/meta.ts";
import { HYDRATE_ON_LOAD } from "#src/lib/route-handle.ts";

// The page checks the code with Firebase as soon as it opens.
export const handle = HYDRATE_ON_LOAD;

// The URL carries a one-time code: never leak it to another site through the Referer header.
export const headers: Route.HeadersFunction = () => ({
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-store",
});

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Account action",
    description: `Finish resetting your ${SITE.name} password.`,
    noindex: true,
  });

export default function AuthAction() {
  const [params] = useSearchParams();
  return <EmailAction mode={params.get("mode")} code={params.get("oobCode")} />;
}
