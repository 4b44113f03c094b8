/**
 * The console errors a browser test may expect, each by name, holding exactly what is reported:
 * Chromium's own message for a response with an error status, or, for the app's own
 * `console.error(message, error)`, the message it passes first (what follows is Firebase's error,
 * whose wording is not ours). A test lists the ones it expects in `expectedConsoleErrors`
 * (fixtures.ts); a console error is allowed only when its text, or its first argument, equals one
 * of them, never when it merely contains one, so a new error cannot hide behind an expected one.
 */

/** An exact console message, written only here, so that a test cannot allow a loose pattern. */
export type ExpectedConsoleError = string & { readonly __exactConsoleMessage: true };

const exactly = (message: string) => message as ExpectedConsoleError;

/** A document or request answered 400, as the Auth emulator answers a refused sign-in or code. */
export const BAD_REQUEST_RESPONSE = exactly(
  "Failed to load resource: the server responded with a status of 400 (Bad Request)",
);

/** A document or request answered 403. */
export const FORBIDDEN_RESPONSE = exactly(
  "Failed to load resource: the server responded with a status of 403 (Forbidden)",
);

/** A document or request answered 404. */
export const NOT_FOUND_RESPONSE = exactly(
  "Failed to load resource: the server responded with a status of 404 (Not Found)",
);

/** A link that no longer works, answered 410 (the waitlist's confirm and remove pages). */
export const GONE_RESPONSE = exactly(
  "Failed to load resource: the server responded with a status of 410 (Gone)",
);

/** A form answered 422: its fields did not pass the schema. */
export const UNPROCESSABLE_RESPONSE = exactly(
  "Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)",
);

/**
 * A request answered 429: a client past its rate limit, or a form whose mail to an address is
 * paused for the day (decision 036).
 */
export const TOO_MANY_REQUESTS_RESPONSE = exactly(
  "Failed to load resource: the server responded with a status of 429 (Too Many Requests)",
);

/** A request answered 503. */
export const SERVICE_UNAVAILABLE_RESPONSE = exactly(
  "Failed to load resource: the server responded with a status of 503 (Service Unavailable)",
);

/** A request made while the browser is offline. */
export const OFFLINE_REQUEST = exactly("Failed to load resource: net::ERR_INTERNET_DISCONNECTED");

/** src/features/auth/auth-provider.tsx, when Firebase refuses a sign-in: the first argument. */
export const SIGN_IN_FAILED_LOG = exactly("Error signing in with email");

/** src/features/auth/auth-provider.tsx, when Firebase refuses a sign-up: the first argument. */
export const SIGN_UP_FAILED_LOG = exactly("Error signing up with email");

/** src/features/auth/auth-provider.tsx, when Firebase refuses a reset email: the first argument. */
export const PASSWORD_RESET_FAILED_LOG = exactly("Error sending password reset email");

/**
 * What the not-found page logs for the path it was asked for (src/features/errors/error-screens.tsx):
 * the path alone, without the query.
 */
export function notFoundLog(path: string): ExpectedConsoleError {
  return exactly(`404 Error: User attempted to access non-existent route: ${path}`);
}
