/**
 * The site's configuration against the suite's Auth emulator, for a unit test file that signs in
 * or deletes real accounts: the emulator is started before the file's tests (unless one already
 * answers there) and stopped after them if this file started it.
 */
import { afterAll, beforeAll } from "vitest";
import { startEmulatorFor, type StopEmulator } from "#server/identity/auth-emulator.ts";
import { parseEnv, type Env } from "#server/env.ts";
import { E2E_EMULATOR_HOST, E2E_PROJECT_ID } from "#tests/support/e2e-env.ts";

export function emulatorEnvForThisFile(): Env {
  const env = parseEnv({
    WAITLIST_RATE_LIMIT: "0",
    SITE_URL: "http://localhost:3000",
    FIREBASE_PROJECT_ID: E2E_PROJECT_ID,
    FIREBASE_AUTH_EMULATOR_HOST: E2E_EMULATOR_HOST,
  });
  let stopEmulator: StopEmulator | undefined;
  beforeAll(async () => {
    stopEmulator = await startEmulatorFor(env);
  }, 60_000);
  afterAll(() => stopEmulator?.());
  return env;
}
