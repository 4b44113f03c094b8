import { randomUUID } from "node:crypto";
import { E2E_EMULATOR_HOST, E2E_PROJECT_ID } from "#tests/support/e2e-env.ts";

const EMULATOR = `http://${E2E_EMULATOR_HOST}`;

export function uniqueEmail(label: string): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.com`;
}

/**
 * An account that may already exist from an earlier test in this run (the administrators, whose
 * addresses are fixed): created, or signed in if it is there. Returns its uid.
 */
export async function ensureUser(
  email: string,
  password: string,
  options: { verified: boolean },
): Promise<string> {
  let uid: string;
  try {
    uid = (await createUser(email, password)).uid;
  } catch {
    uid = (await signInWithPassword(email, password)).uid;
  }
  if (options.verified) await verifyEmail(uid);
  return uid;
}

/** Creates an account directly in the Auth emulator (the fixture way, not through the UI). */
export async function createUser(
  email: string,
  password: string,
): Promise<{ uid: string; idToken: string }> {
  const response = await fetch(
    `${EMULATOR}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-api-key`,
    {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email, password, returnSecureToken: true }),
    },
  );
  if (!response.ok)
    throw new Error(`createUser failed: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { localId: string; idToken: string };
  return { uid: body.localId, idToken: body.idToken };
}

type OobCode = { email: string; oobCode: string; oobLink: string; requestType: string };

/** The emails the emulator "sent": reset and verification codes, newest last. */
export async function oobCodes(email: string): Promise<OobCode[]> {
  const response = await fetch(`${EMULATOR}/emulator/v1/projects/${E2E_PROJECT_ID}/oobCodes`);
  const body = (await response.json()) as { oobCodes: OobCode[] };
  return body.oobCodes.filter((c) => c.email.toLowerCase() === email.toLowerCase());
}

/** Marks an account's email as verified, as the emulator's administrator. */
export async function verifyEmail(uid: string): Promise<void> {
  const response = await fetch(
    `${EMULATOR}/identitytoolkit.googleapis.com/v1/projects/${E2E_PROJECT_ID}/accounts:update`,
    {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer owner" },
      body: JSON.stringify({ localId: uid, emailVerified: true }),
    },
  );
  if (!response.ok)
    throw new Error(`verifyEmail failed: ${response.status} ${await response.text()}`);
}

type PasswordSignIn = {
  uid: string;
  idToken: string;
  refreshToken: string;
  /** Seconds the ID token is good for. */
  expiresIn: number;
};

/** Signs in with email and password, as the web SDK does: a fresh ID token and a refresh token. */
export async function signInWithPassword(email: string, password: string): Promise<PasswordSignIn> {
  const response = await fetch(
    `${EMULATOR}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo-api-key`,
    {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email, password, returnSecureToken: true }),
    },
  );
  if (!response.ok) throw new Error(`signIn failed: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as {
    localId: string;
    idToken: string;
    refreshToken: string;
    expiresIn: string;
  };
  return {
    uid: body.localId,
    idToken: body.idToken,
    refreshToken: body.refreshToken,
    expiresIn: Number(body.expiresIn),
  };
}

/** Changes an account as the emulator's administrator (Identity Toolkit's accounts:update). */
async function updateAccount(uid: string, change: Record<string, unknown>): Promise<void> {
  const response = await fetch(
    `${EMULATOR}/identitytoolkit.googleapis.com/v1/projects/${E2E_PROJECT_ID}/accounts:update`,
    {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer owner" },
      body: JSON.stringify({ localId: uid, ...change }),
    },
  );
  if (!response.ok)
    throw new Error(`accounts:update failed: ${response.status} ${await response.text()}`);
}

/** Disables an account, as an operator would in the Firebase console. */
export function disableUser(uid: string): Promise<void> {
  return updateAccount(uid, { disableUser: true });
}

/** Signs an account out everywhere: tokens from before now are no longer valid. */
export function revokeSessions(uid: string): Promise<void> {
  return updateAccount(uid, { validSince: String(Math.floor(Date.now() / 1000)) });
}

/** Deletes an account. */
export async function deleteUser(uid: string): Promise<void> {
  const response = await fetch(
    `${EMULATOR}/identitytoolkit.googleapis.com/v1/projects/${E2E_PROJECT_ID}/accounts:delete`,
    {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer owner" },
      body: JSON.stringify({ localId: uid }),
    },
  );
  if (!response.ok)
    throw new Error(`deleteUser failed: ${response.status} ${await response.text()}`);
}

/**
 * An account made long ago (`createdAtMs`), as one imported into Firebase (Identity Toolkit's
 * accounts:batchCreate, the emulator's administrator): an account from before a change of rules.
 */
export async function importAccount(
  email: string,
  password: string,
  createdAtMs: number,
): Promise<{ uid: string }> {
  const uid = randomUUID().replace(/-/g, "").slice(0, 28);
  const response = await fetch(
    `${EMULATOR}/identitytoolkit.googleapis.com/v1/projects/${E2E_PROJECT_ID}/accounts:batchCreate`,
    {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer owner" },
      body: JSON.stringify({
        users: [{ localId: uid, email, rawPassword: password, createdAt: String(createdAtMs) }],
      }),
    },
  );
  const body = (await response.json()) as { error?: unknown[] };
  if (!response.ok || (body.error?.length ?? 0) > 0)
    throw new Error(`importAccount failed: ${response.status} ${JSON.stringify(body)}`);
  return { uid };
}

/** Whether an account with this address exists (the emulator's administrator asks). */
export async function accountExists(email: string): Promise<boolean> {
  const response = await fetch(
    `${EMULATOR}/identitytoolkit.googleapis.com/v1/projects/${E2E_PROJECT_ID}/accounts:lookup`,
    {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer owner" },
      body: JSON.stringify({ email: [email] }),
    },
  );
  if (!response.ok)
    throw new Error(`accountExists failed: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { users?: unknown[] };
  return (body.users?.length ?? 0) > 0;
}
