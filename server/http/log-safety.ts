/**
 * What may be written to the logs about a person: enough to follow an incident, never enough to
 * replay it. Passwords and tokens never reach a log call; emails are shortened; the pino
 * instance also censors the headers that carry credentials, in case an error object holds them.
 */
import { pino, type Logger } from "pino";

/** jane.doe@example.com → j***@example.com; anything that is not an email → "***". */
export function maskEmail(email: string | null | undefined): string | null {
  if (!email) return null;
  const at = email.lastIndexOf("@");
  if (at < 1 || at === email.length - 1) return "***";
  return `${email[0]}***@${email.slice(at + 1)}`;
}

/** pino's redact option: credential-bearing fields wherever a logged object carries them. */
export const LOG_REDACT = {
  paths: [
    "req.headers.authorization",
    "req.headers.cookie",
    "res.headers['set-cookie']",
    "headers.authorization",
    "headers.cookie",
    "password",
    "*.password",
    "idToken",
    "*.idToken",
    "token",
    "*.token",
  ],
  censor: "[redacted]",
};

type LoggedError = {
  type: string;
  message: string;
  code?: string;
  stack?: string;
  cause?: LoggedError;
};

/** Lines of a database error that quote what was sent: "params: …" (drizzle), "Key (email)=(…)". */
const QUOTED_VALUES = /\n\s*params: [^\n]*|\(([^)]*)\)=\([^)]*\)/g;

/**
 * pino's serializer for `err`: the type, code, message and stack of an error and of its cause,
 * and nothing else. A failed query's error carries the query's parameters (emails, names,
 * session ids) as properties and in its message; none of them reaches the log
 * (tests/e2e/hostile-logs.spec.ts).
 */
export function serializeError(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: "(not an Error)" };
  const clean = (text: string) =>
    text.replace(QUOTED_VALUES, (_m, key?: string) =>
      key ? `(${key})=([redacted])` : "\n params: [redacted]",
    );
  const code = (error as { code?: unknown }).code;
  return {
    type: error.name,
    message: clean(error.message),
    ...(typeof code === "string" ? { code } : {}),
    ...(error.stack ? { stack: clean(error.stack) } : {}),
    ...(error.cause !== undefined && depth < 3
      ? { cause: serializeError(error.cause, depth + 1) }
      : {}),
  };
}

/** The pino options every server logger uses. */
export const LOG_OPTIONS = {
  redact: LOG_REDACT,
  serializers: { err: (e: unknown) => serializeError(e) },
};

/**
 * The loggers of a server process, both writing to stdout through one destination:
 *
 * - `log`, with LOG_OPTIONS, for everything a request or job has to say;
 * - `requestLines`, for the one line per request (server/http/request-log.ts) and nothing else. That
 *   line is a fixed set of numbers and strings (method, path, status, time, address, uid) under
 *   keys none of LOG_REDACT's paths names, so redaction could never change a byte of it; it is
 *   skipped because its leading wildcards make pino run the redactor on every field of every line.
 *
 * Writes are synchronous, as Node's own stdout is on Linux for files and pipes: a line is on its
 * way when it is logged (none waits in memory to be lost in a crash), and none costs a round trip
 * through the thread pool, which took more time than the write itself, once per request.
 */
export function serverLoggers(level: string): { log: Logger; requestLines: Logger } {
  const destination = pino.destination({ dest: 1, sync: true });
  return {
    log: pino({ level, ...LOG_OPTIONS }, destination),
    requestLines: pino({ level }, destination),
  };
}
