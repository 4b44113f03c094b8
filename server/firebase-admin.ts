import { getApps, initializeApp } from "firebase-admin/app";
import { getAuth } from "firebase-admin/auth";
import type { Env } from "#server/env.ts";
import type { TokenVerifier } from "#server/session.ts";

/**
 * Verifies Firebase ID tokens. With a real project only the project id is needed (Google's public
 * keys check the signature); in emulator mode firebase-admin talks to the emulator instead.
 */
export function createTokenVerifier(env: Env): TokenVerifier {
  if (env.firebase.mode === "emulator") {
    // firebase-admin reads this variable itself; env.ts already validated and defaulted it.
    process.env.FIREBASE_AUTH_EMULATOR_HOST = env.firebase.emulatorHost;
  }
  const name = `tieout-${env.firebase.projectId}`;
  const app =
    getApps().find((a) => a.name === name) ??
    initializeApp({ projectId: env.firebase.projectId }, name);
  const auth = getAuth(app);
  const emulator = env.firebase.mode === "emulator";
  return async (idToken) => {
    const decoded = await auth.verifyIdToken(idToken);
    if (emulator) {
      // The emulator's tokens are unsigned, so firebase-admin cannot tell a forged one from a real
      // one: ask the emulator for the account and believe only what it says.
      const user = await auth.getUser(decoded.uid);
      return {
        uid: user.uid,
        email: user.email,
        email_verified: user.emailVerified,
        iat: decoded.iat,
        auth_time: decoded.auth_time,
      };
    }
    return {
      uid: decoded.uid,
      email: decoded.email,
      email_verified: decoded.email_verified,
      iat: decoded.iat,
      auth_time: decoded.auth_time,
    };
  };
}
