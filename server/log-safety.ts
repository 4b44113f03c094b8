/**
 * What may be written to the logs about a person: enough to follow an incident, never enough to
 * replay it. Passwords and tokens never reach a log call; emails are shortened; the pino
 * instance also censors the headers that carry credentials, in case an error object holds them.
 */

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
