import { redirect, type RouterContextProvider } from "react-router";
import { loadContext } from "#src/load-context.ts";

/** Loader of the sign-in and sign-up pages: a visitor the server knows is signed in goes home. */
export function requireAnonymous({ context }: { context: Readonly<RouterContextProvider> }): null {
  if (context.get(loadContext).sessionUser) throw redirect("/");
  return null;
}
