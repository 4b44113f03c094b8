/**
 * The configuration the site is deployed with, for tests that judge what production sends: HTTPS
 * at `SITE_URL` behind a TLS-terminating proxy on this machine, and a real Firebase project.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export const DEPLOYED_SITE_URL = "https://localhost";

/** HTTPS behind a proxy on loopback, whose forwarded headers the server believes. */
export const BEHIND_PROXY = { SITE_URL: DEPLOYED_SITE_URL, TRUST_PROXY: "127.0.0.1" };

let keyFolder: string | undefined;

/**
 * A real Firebase project's settings: its web configuration and a service-account key file. The
 * values are well-formed but reach nothing: the key is made here (Google never issued it), so
 * the server starts with them, and anything it asks of Firebase fails as an outage would.
 */
export function realFirebaseProject(projectId: string) {
  if (!keyFolder) {
    const folder = mkdtempSync(path.join(tmpdir(), "tieout-service-account-"));
    process.once("exit", () => rmSync(folder, { recursive: true, force: true }));
    keyFolder = folder;
  }
  const keyFile = path.join(keyFolder, `${projectId}.json`);
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  writeFileSync(
    keyFile,
    JSON.stringify({
      type: "service_account",
      project_id: projectId,
      client_email: `firebase-adminsdk@${projectId}.iam.gserviceaccount.com`,
      private_key: privateKey.export({ type: "pkcs8", format: "pem" }),
    }),
  );
  return {
    FIREBASE_API_KEY: "AIzaSyObservatoryTestKeyNotARealKey00",
    FIREBASE_AUTH_DOMAIN: `${projectId}.firebaseapp.com`,
    FIREBASE_PROJECT_ID: projectId,
    FIREBASE_APP_ID: "1:000000000000:web:0000000000000000",
    GOOGLE_APPLICATION_CREDENTIALS: keyFile,
    SESSION_SECRET: randomBytes(32).toString("base64url"),
    ERASURE_KEY: randomBytes(32).toString("base64url"),
  };
}

/**
 * The real project a deployed site runs on. (In emulator mode the page's CSP allows the
 * emulator's plain-HTTP origin in connect-src, which an HTTPS site would rightly be marked down
 * for.)
 */
export const PRODUCTION_FIREBASE = {
  ...realFirebaseProject("tieout-observatory"),
  FIREBASE_AUTH_EMULATOR_HOST: "",
};

/** Every setting a public site at https://tieout.ai must have, for unit tests of production. */
export const publicSite = () => ({
  ...realFirebaseProject("tieout"),
  SITE_URL: "https://tieout.ai",
  TRUST_PROXY: "loopback",
  SMTP_URL: "smtp://relay.example.com",
});
