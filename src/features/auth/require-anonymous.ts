import { redirect, type AppLoadContext } from "react-router";

/** Loader of the sign-in and sign-up pages: a visitor the server knows is signed in goes home. */
export function requireAnonymous({ context }: { context: AppLoadContext }): null {
  if (context.sessionUser) throw redirect("/");
  return null;
}
