/**
 * The configuration the site is deployed with, for tests that judge what production sends: HTTPS
 * at `SITE_URL` behind a TLS-terminating proxy on this machine, and a real Firebase project.
 */
import { randomBytes } from "node:crypto";

export const DEPLOYED_SITE_URL = "https://localhost";

/** HTTPS behind a proxy on loopback, whose forwarded headers the server believes. */
export const BEHIND_PROXY = { SITE_URL: DEPLOYED_SITE_URL, TRUST_PROXY: "127.0.0.1" };

/**
 * A real Firebase project's web configuration, as the public site is deployed. The values are
 * well-formed but unused: nothing signs in against a server started with them. (In emulator mode
 * the page's CSP allows the emulator's plain-HTTP origin in connect-src, which an HTTPS site would
 * rightly be marked down for.)
 */
export const PRODUCTION_FIREBASE = {
  FIREBASE_API_KEY: "AIzaSyObservatoryTestKeyNotARealKey00",
  FIREBASE_AUTH_DOMAIN: "tieout-observatory.firebaseapp.com",
  FIREBASE_PROJECT_ID: "tieout-observatory",
  FIREBASE_APP_ID: "1:000000000000:web:0000000000000000",
  FIREBASE_AUTH_EMULATOR_HOST: "",
  SESSION_SECRET: randomBytes(32).toString("base64url"),
};
