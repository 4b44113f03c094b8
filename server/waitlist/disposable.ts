/**
 * Throwaway addresses (decision 023): the domains of the maintained `mailchecker` list, and their
 * subdomains. No DNS lookup: a submission is answered from this list alone.
 */
import { createRequire } from "node:module";
import type { blacklist } from "mailchecker";

// mailchecker is CommonJS whose exports Node's ESM loader detects only in part (no `blacklist`).
const mailchecker = createRequire(import.meta.url)("mailchecker") as {
  blacklist: typeof blacklist;
};
const THROWAWAY_DOMAINS = mailchecker.blacklist();

/** Whether the address's domain, or a domain it belongs to, is on the list. */
export function isDisposableEmail(email: string): boolean {
  const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
  const labels = domain.split(".");
  for (let i = 0; i < labels.length - 1; i++)
    if (THROWAWAY_DOMAINS.has(labels.slice(i).join("."))) return true;
  return false;
}
