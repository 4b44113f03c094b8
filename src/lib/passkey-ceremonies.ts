/**
 * The browser's side of the admin's passkey ceremonies (decision 039): ask the server for options,
 * let the browser's WebAuthn do the rest (@simplewebauthn/browser), and send the answer back. The
 * server decides everything; this only carries messages and turns failures into sentences.
 */
import { startAuthentication, startRegistration, WebAuthnError } from "@simplewebauthn/browser";
import { ADMIN_VERIFY_API } from "#src/lib/admin-verify.ts";

/** A refusal, with the server's sentence and its reason (`step-up-required`, `locked`, …). */
export class CeremonyError extends Error {
  override name = "CeremonyError";
  constructor(
    message: string,
    readonly reason: string | null = null,
  ) {
    super(message);
  }
}

const UNREACHABLE = "We could not reach the site. Check your connection and try again.";

/** POSTs JSON to the admin API; resolves with the body, or throws its sentence. */
export async function postJson<T>(path: string, body: unknown = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    throw new CeremonyError(UNREACHABLE);
  }
  const answer = (await response.json().catch(() => null)) as
    (T & { message?: unknown; reason?: unknown }) | null;
  if (!response.ok) {
    const message =
      typeof answer?.message === "string"
        ? answer.message
        : "Something went wrong on our side. Please try again in a minute.";
    throw new CeremonyError(message, typeof answer?.reason === "string" ? answer.reason : null);
  }
  return answer as T;
}

/** What a browser's WebAuthn failure means to the person at it. */
function browserFailure(error: unknown): CeremonyError {
  if (error instanceof CeremonyError) return error;
  const name =
    error instanceof WebAuthnError
      ? ((error.cause as { name?: string } | undefined)?.name ?? error.name)
      : (error as { name?: string } | null)?.name;
  if (name === "NotAllowedError" || name === "AbortError")
    return new CeremonyError("The passkey request was cancelled or timed out. Please try again.");
  if (name === "InvalidStateError")
    return new CeremonyError("This device already holds a passkey for your admin access.");
  if (name === "SecurityError")
    return new CeremonyError(
      "Passkeys work only at the site's own address. Open the admin from there and try again.",
    );
  return new CeremonyError("Your browser could not use a passkey here. Please try again.");
}

/** Verifies (or steps up) this session with a passkey; the server sets the new session cookie. */
export async function verifyWithPasskey(): Promise<void> {
  const optionsJSON = await postJson<Parameters<typeof startAuthentication>[0]["optionsJSON"]>(
    ADMIN_VERIFY_API.assertionOptions,
  );
  let response;
  try {
    response = await startAuthentication({ optionsJSON });
  } catch (error) {
    throw browserFailure(error);
  }
  await postJson(ADMIN_VERIFY_API.assert, { response });
}

/** Registers a passkey; the first comes with recovery codes, shown once. */
export async function registerPasskey(name: string): Promise<{ recoveryCodes: string[] | null }> {
  const optionsJSON = await postJson<Parameters<typeof startRegistration>[0]["optionsJSON"]>(
    ADMIN_VERIFY_API.registrationOptions,
  );
  let response;
  try {
    response = await startRegistration({ optionsJSON });
  } catch (error) {
    throw browserFailure(error);
  }
  return postJson<{ recoveryCodes: string[] | null }>(ADMIN_VERIFY_API.register, {
    response,
    name: name.trim() || undefined,
  });
}

/**
 * Runs an action that needs a step-up: when the server answers that it does, asks for the passkey
 * ("Confirm it's you") and tries once more.
 */
export async function withStepUp<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (!(error instanceof CeremonyError) || error.reason !== "step-up-required") throw error;
  }
  await verifyWithPasskey();
  return action();
}

/** Whether a step-up is still good (per this browser's clock, with a minute to spare). */
export function stepUpIsFresh(stepUpUntil: string | null): boolean {
  return stepUpUntil !== null && Date.parse(stepUpUntil) - Date.now() > 60_000;
}
