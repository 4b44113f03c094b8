import type { Env } from "#server/env.ts";
import type { PublicEnv } from "#src/lib/public-env.ts";

/** The allow-list of configuration a page may see. Nothing else from the environment reaches HTML. */
export function getPublicEnv(env: Env): PublicEnv {
  return {
    siteUrl: env.siteUrl,
    demoEmbed: env.demoEmbed ?? null,
  };
}
