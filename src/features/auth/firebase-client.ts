/**
 * The Firebase SDK, loaded on demand (dynamic import) so pages that do not need it never pay for
 * it. initializeAuth with IndexedDB persistence and no popup resolver keeps the bundle small and
 * avoids the hidden iframe getAuth() would add.
 */
import type * as FirebaseAuthSdk from "firebase/auth";
import type { Auth } from "firebase/auth";
import type { FirebaseWebConfig } from "#src/lib/public-env.ts";

let pending: Promise<{ auth: Auth; sdk: typeof FirebaseAuthSdk }> | null = null;

export function loadFirebaseAuth(config: FirebaseWebConfig) {
  pending ??= (async () => {
    const [{ initializeApp, getApps }, sdk] = await Promise.all([
      import("firebase/app"),
      import("firebase/auth"),
    ]);
    const app =
      getApps()[0] ??
      initializeApp({
        apiKey: config.apiKey,
        authDomain: config.authDomain,
        projectId: config.projectId,
        ...(config.appId ? { appId: config.appId } : {}),
      });
    const auth = sdk.initializeAuth(app, {
      persistence: [sdk.indexedDBLocalPersistence, sdk.browserLocalPersistence],
    });
    if (config.emulatorUrl)
      sdk.connectAuthEmulator(auth, config.emulatorUrl, { disableWarnings: true });
    return { auth, sdk };
  })();
  pending.catch(() => {
    pending = null;
  });
  return pending;
}
