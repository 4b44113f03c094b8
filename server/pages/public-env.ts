import type { Env } from "#server/env.ts";
import type { FirebaseWebConfig, PublicEnv } from "#src/lib/public-env.ts";

export const EMULATOR_API_KEY = "demo-api-key";

function getFirebaseWebConfig(env: Env): FirebaseWebConfig {
  const { firebase } = env;
  if (firebase.mode === "emulator") {
    return {
      apiKey: EMULATOR_API_KEY,
      authDomain: `${firebase.projectId}.firebaseapp.com`,
      projectId: firebase.projectId,
      appId: undefined,
      emulatorUrl: `http://${firebase.emulatorHost}`,
    };
  }
  return {
    apiKey: firebase.apiKey,
    authDomain: firebase.authDomain,
    projectId: firebase.projectId,
    appId: firebase.appId,
    emulatorUrl: null,
  };
}

/** The allow-list of configuration a page may see. Nothing else from the environment reaches HTML. */
export function getPublicEnv(env: Env): PublicEnv {
  return {
    siteUrl: env.siteUrl,
    demoEmbed: env.demoEmbed ?? null,
    firebase: getFirebaseWebConfig(env),
  };
}
