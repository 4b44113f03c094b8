/**
 * What a loader or action throws when it cannot answer: a status, a sentence for the visitor, and
 * for our own failures (5xx) the request's id, so the visitor can quote it and we can find the log
 * line. The root error boundary shows it by status (src/features/errors/error-screens.tsx), the
 * same for a page load and for a client-side navigation's `.data` request.
 */
import { data } from "react-router";

export type ErrorData = { message: string; requestId?: string };

/** The visitor may not do this (401, 403) or asked for something that is not there (404). */
export function refusal(status: 401 | 403 | 404, message: string) {
  return data<ErrorData>({ message }, { status });
}

/** We could not answer now (503 and kin): try again after `retryAfter` seconds. */
export function failure(
  context: { requestId: string },
  message: string,
  { status = 503, retryAfter = 30 }: { status?: number; retryAfter?: number } = {},
) {
  return data<ErrorData>(
    { message, requestId: context.requestId },
    { status, headers: { "Retry-After": String(retryAfter) } },
  );
}

/**
 * The message and request id an error response carries, if it is one of ours (refusal, failure).
 * React Router's own error responses carry a string written for developers ("You made a POST
 * request to … but did not provide an `action` …"): the visitor gets the screen's own sentence.
 */
export function errorDataOf(value: unknown): Partial<ErrorData> {
  if (typeof value !== "object" || value === null) return {};
  const { message, requestId } = value as Record<string, unknown>;
  return {
    ...(typeof message === "string" ? { message } : {}),
    ...(typeof requestId === "string" ? { requestId } : {}),
  };
}
