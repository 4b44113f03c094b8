/**
 * What the server shares with the browser. Built on the server by an allow-list (server/public-env.ts)
 * so a new secret in the environment can never reach a page by accident.
 */
import { useRouteLoaderData } from "react-router";
import type { DemoEmbed } from "#src/lib/demo-embed.ts";

export type PublicEnv = {
  siteUrl: string;
  demoEmbed: DemoEmbed | null;
};

declare module "react-router" {
  interface AppLoadContext {
    publicEnv: PublicEnv;
    /** Per-response CSP nonce for the inline scripts React Router writes. */
    nonce: string;
  }
}

export function usePublicEnv(): PublicEnv {
  const data = useRouteLoaderData<{ env: PublicEnv }>("root");
  if (!data) throw new Error("usePublicEnv needs the root loader data");
  return data.env;
}
