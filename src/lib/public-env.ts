/**
 * What the server shares with the browser. Built on the server by an allow-list (server/pages/public-env.ts)
 * so a new secret in the environment can never reach a page by accident.
 */
import { useRouteLoaderData } from "react-router";
import type { DemoEmbed } from "#src/lib/demo-embed.ts";

/** The Firebase web app config. Public by design: it identifies the project, it grants nothing. */
export type FirebaseWebConfig = {
  apiKey: string;
  authDomain: string;
  projectId: string;
  appId: string | undefined;
  /** Set in emulator mode: the Auth emulator's URL, which the browser connects to. */
  emulatorUrl: string | null;
};

export type PublicEnv = {
  siteUrl: string;
  demoEmbed: DemoEmbed | null;
  firebase: FirebaseWebConfig;
};

/** The signed-in visitor as the server knows them from the session cookie. */
export type SessionUser = { uid: string; email: string | null };

/**
 * What a page rendered for a signed-in visitor is told of them: also whether their session names
 * an administrator, so the header can offer the admin. Only such pages carry it; they are never
 * shared (decision 010). The admin pages still ask Firebase themselves (decision 013).
 */
export type PageUser = SessionUser & { admin: boolean };

export function usePublicEnv(): PublicEnv {
  const data = useRouteLoaderData<{ env: PublicEnv }>("root");
  if (!data) throw new Error("usePublicEnv needs the root loader data");
  return data.env;
}
