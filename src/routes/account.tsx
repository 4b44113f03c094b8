import { data, redirect } from "react-router";
import {
  AccountView,
  type AccountAdminAccess,
  NEEDS_JAVASCRIPT_ERROR,
  type AccountActionData,
  type AccountIntent,
  WAITLIST_NEWS_FIELD,
} from "#src/features/auth/account-view.tsx";
import { PRODUCT_NEWS_FIELD } from "#src/ui/product-news-box.tsx";
import { requireUser } from "#src/lib/guards.ts";
import { failure } from "#src/lib/http-errors.ts";
import { pageMeta } from "#src/lib/meta.ts";
import { SIGNED_IN_ONLY } from "#src/lib/route-handle.ts";
import type { Route } from "./+types/account";
import { loadContext, type LoadContext } from "#src/load-context.ts";

export const handle = SIGNED_IN_ONLY;

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });
export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Account",
    description:
      "Your account: its email, your password, sessions, your data and deleting the account.",
    noindex: true,
  });

const UNAVAILABLE = "This is unavailable for a moment. Please try again in a minute.";
/** An ID token is a JWT of a few hundred bytes; anything far longer is not one. */
const MAX_ID_TOKEN_LENGTH = 4096;

export async function loader({ context }: Route.LoaderArgs) {
  const server = context.get(loadContext);
  const user = await requireUser(server);
  const overview = await server.account.overview(user.uid).catch(() => undefined);
  if (overview === undefined)
    throw failure(
      server,
      "Your account is unavailable for a moment. Please try again in a minute.",
    );
  // Deleted at Firebase since the session was checked: nothing left to show.
  if (overview === null) throw redirect("/login");
  const mail = await server.mail.preferencesOf(user).catch((error: unknown) => {
    server.reportError(error);
    return null;
  });
  return { overview, admin: await adminAccessOf(server), mail };
}

/**
 * An administrator's passkeys and codes when this session is verified with a passkey; a pointer to
 * /admin/verify when it is not; nothing for anyone else (decision 039).
 */
async function adminAccessOf(server: LoadContext): Promise<AccountAdminAccess> {
  if (!server.sessionUser?.admin) return null;
  const access = await server.adminVerify.overview().catch((error: unknown) => {
    server.reportError(error);
    return undefined;
  });
  if (access === undefined) return null;
  return access ? { kind: "verified", access } : { kind: "unverified" };
}

const answer = (intent: AccountIntent | null, error: string, status: number) =>
  data<AccountActionData>({ intent, error }, { status });

/**
 * The page's forms post here. Sign out everywhere and deletion end in a redirect (the browser's
 * script reads that as success); the forms whose password Firebase checks in the browser come
 * here only when JavaScript never ran, and are told so.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const server = context.get(loadContext);
  const user = await requireUser(server);
  const form = await request.formData();
  const intent = form.get("intent");
  switch (intent) {
    case "send-verification":
    case "change-password":
      return answer(intent, NEEDS_JAVASCRIPT_ERROR, 400);
    case "sign-out-everywhere":
      try {
        await server.account.signOutEverywhere(user.uid);
      } catch (error) {
        server.reportError(error);
        return answer(intent, UNAVAILABLE, 503);
      }
      throw redirect("/login");
    case "delete-account": {
      const idToken = form.get("idToken");
      if (typeof idToken !== "string" || idToken === "")
        return answer(intent, NEEDS_JAVASCRIPT_ERROR, 400);
      if (idToken.length > MAX_ID_TOKEN_LENGTH)
        return answer(
          intent,
          "We could not confirm it was you. Please enter your password again.",
          401,
        );
      const result = await server.account.deleteAccount(user.uid, idToken, server.clientAddress);
      if (result.kind === "deleted") throw redirect("/account/deleted");
      if (result.kind === "unavailable")
        return answer(intent, `Your account was not deleted. ${UNAVAILABLE}`, 503);
      return answer(
        intent,
        result.kind === "proof-stale"
          ? "Your password was entered too long ago. Please enter it again."
          : "We could not confirm it was you. Please enter your password again.",
        401,
      );
    }
    case "mail-preferences": {
      const wanted = {
        waitlistNews: form.get(WAITLIST_NEWS_FIELD) === "yes",
        productNews: form.get(PRODUCT_NEWS_FIELD) === "yes",
      };
      const saved = await server.mail.setPreferences(user, wanted).catch((error: unknown) => {
        server.reportError(error);
        return undefined;
      });
      if (saved === undefined) return answer(intent, UNAVAILABLE, 503);
      if (!saved)
        return answer(intent, "Your account holds no waitlist entry to send news to.", 409);
      return data<AccountActionData>({
        intent,
        error: "",
        done: "Saved: your mail choices are as shown.",
      });
    }
    default:
      return answer(null, "This form is not one of this page's. Please reload the page.", 400);
  }
}

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <AccountView
      overview={loaderData.overview}
      posted={actionData}
      admin={loaderData.admin}
      mail={loaderData.mail}
    />
  );
}
