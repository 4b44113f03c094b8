/**
 * /.well-known/security.txt (RFC 9116): where to report a vulnerability, for people and tools that
 * look there first. Written for each request, so its expiry is always ahead, never stale.
 */
import type { Env } from "#server/env.ts";
import { SITE } from "#src/content/site.ts";

export const SECURITY_TXT_PATH = "/.well-known/security.txt";

/** RFC 9116 asks for less than a year; a quarter keeps it well inside that. */
const EXPIRES_AFTER_DAYS = 90;

/** The file as of `now`: contact, expiry, policy, language and its own canonical address. */
export function securityTxt(env: Pick<Env, "siteUrl">, now = new Date()): string {
  const expires = new Date(now.getTime() + EXPIRES_AFTER_DAYS * 86_400_000);
  return [
    `# How to report a security weakness in ${SITE.name}: ${env.siteUrl}/security#report-a-vulnerability`,
    `Contact: mailto:${SITE.securityEmail}`,
    // RFC 3339 without fractions of a second.
    `Expires: ${expires.toISOString().replace(/\.\d{3}Z$/, "Z")}`,
    `Policy: ${env.siteUrl}/security#report-a-vulnerability`,
    "Preferred-Languages: en",
    `Canonical: ${env.siteUrl}${SECURITY_TXT_PATH}`,
    "",
  ].join("\n");
}
