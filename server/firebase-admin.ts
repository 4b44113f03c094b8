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
  const app = getApps().find((a) => a.name === name) ?? initializeApp({ projectId: env.firebase.projectId }, name);
  const auth = getAuth(app);
  return async (idToken) => {
    const decoded = await auth.verifyIdToken(idToken);
    return { uid: decoded.uid, email: decoded.email, email_verified: decoded.email_verified, iat: decoded.iat };
  };
}
