/**
 * Start-up's emulator step, shared by the production server (server/index.ts) and `npm run dev`:
 * in emulator mode, the Firebase Auth emulator at the configured address, unless one already
 * answers there. With a real Firebase project, nothing.
 */
import type { Env } from "#server/env.ts";
import { startAuthEmulator } from "../../scripts/auth-emulator.mjs";

/** Stops the emulator this process started, if it started one. */
export type StopEmulator = () => Promise<void>;

export async function startEmulatorFor(env: Env): Promise<StopEmulator> {
  if (env.firebase.mode !== "emulator") return () => Promise.resolve();
  const { projectId, emulatorHost } = env.firebase;
  const emulator = await startAuthEmulator({ projectId, host: emulatorHost });
  if (emulator.started)
    console.log(`Firebase Auth emulator (project ${projectId}) at http://${emulatorHost}`);
  return emulator.stop;
}
