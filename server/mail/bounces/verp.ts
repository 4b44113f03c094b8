/**
 * VERP return paths: each outgoing broadcast mail gets an envelope sender of its own,
 * `bounces+<token>@domain`, so a bounce names the outbox row it is about without our parsing the
 * bounce's prose. The token is the row's id and a MAC over it: anyone can send mail to the bounce
 * address, and without the MAC a forged bounce could have any address suppressed.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

/** 16 hex characters: 64 bits of MAC, far beyond what guessing by mail could try. */
const MAC_HEX_LENGTH = 16;
/** The id in base 36 (Number.MAX_SAFE_INTEGER has 11 digits there), a hyphen, the MAC. */
const TOKEN = /^([0-9a-z]{1,11})-([0-9a-f]{16})$/;
/**
 * RFC 5322's atext with dots between atoms, less `+`, which is our delimiter: a plain address with
 * nothing that would need quoting, no display name and no angle brackets.
 */
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*/=?^_`{|}~-]+)*$/;
/** Host names only (one label or more, so `bounces@localhost` works in development). */
const DOMAIN =
  /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/;

type Mailbox = { local: string; domain: string };

/** The bounce address split in two, or a throw: a misconfigured address must stop start-up. */
function requireBounceAddress(bounceAddress: string): Mailbox {
  const at = bounceAddress.lastIndexOf("@");
  const local = bounceAddress.slice(0, at);
  const domain = bounceAddress.slice(at + 1);
  if (local.includes("+"))
    throw new Error(
      `The bounce address ${JSON.stringify(bounceAddress)} already has a "+" in its local part: VERP adds its own`,
    );
  if (at < 1 || !LOCAL_PART.test(local) || !DOMAIN.test(domain))
    throw new Error(
      `The bounce address ${JSON.stringify(bounceAddress)} is not a plain address such as bounces@example.com`,
    );
  return { local, domain };
}

/** An address as it may reach us (any case, maybe in angle brackets), split in two, lowercased. */
function splitAddress(address: string): Mailbox | null {
  const bare = address.trim().replace(/^<(.*)>$/, "$1");
  const at = bare.lastIndexOf("@");
  if (at < 1) return null;
  return { local: bare.slice(0, at).toLowerCase(), domain: bare.slice(at + 1).toLowerCase() };
}

function mac(messageId: number, key: string): string {
  return createHmac("sha256", key)
    .update(`verp:${messageId}`)
    .digest("hex")
    .slice(0, MAC_HEX_LENGTH);
}

function requireMessageId(messageId: number): void {
  if (!Number.isSafeInteger(messageId) || messageId < 0)
    throw new Error(`A VERP token needs a non-negative integer id, not ${messageId}`);
}

function requireKey(key: string): void {
  // An empty key would make every token computable by anyone.
  if (key.length === 0) throw new Error("A VERP token needs a non-empty key");
}

/**
 * The token for an outbox row: its id in base 36, a hyphen, 16 hex characters of
 * HMAC-SHA256(key, "verp:" + id). Lowercase only, since some relays lowercase the local part, and a
 * hyphen rather than a dot, which some mailbox providers ignore in local parts.
 */
export function verpToken(messageId: number, key: string): string {
  requireMessageId(messageId);
  requireKey(key);
  return `${messageId.toString(36)}-${mac(messageId, key)}`;
}

/** The envelope sender for an outbox row: `bounces@example.com` -> `bounces+<token>@example.com`. */
export function verpAddress(bounceAddress: string, messageId: number, key: string): string {
  const { local, domain } = requireBounceAddress(bounceAddress);
  return `${local}+${verpToken(messageId, key)}@${domain}`;
}

/**
 * The outbox row an address names: its id when `address` is the bounce address with a token this
 * key made, else null. Local part and domain are compared without case, since relays may change it.
 */
export function messageOfVerp(address: string, bounceAddress: string, key: string): number | null {
  const bounce = requireBounceAddress(bounceAddress);
  requireKey(key);
  const found = splitAddress(address);
  if (!found || found.domain !== bounce.domain.toLowerCase()) return null;
  const prefix = `${bounce.local.toLowerCase()}+`;
  if (!found.local.startsWith(prefix)) return null;
  const token = TOKEN.exec(found.local.slice(prefix.length));
  if (!token) return null;
  const [, digits = "", given = ""] = token;
  const messageId = Number.parseInt(digits, 36);
  // One spelling per id: no leading zeros, nothing past the safe integers.
  if (!Number.isSafeInteger(messageId) || messageId.toString(36) !== digits) return null;
  const expected = Buffer.from(mac(messageId, key));
  return timingSafeEqual(expected, Buffer.from(given)) ? messageId : null;
}

/**
 * Whether an envelope recipient is the bounce address itself or it with any `+token`: what a
 * listener for bounces may accept. The token is checked later, by whoever reads the report.
 */
export function isBounceRecipient(address: string, bounceAddress: string): boolean {
  const bounce = requireBounceAddress(bounceAddress);
  const found = splitAddress(address);
  if (!found || found.domain !== bounce.domain.toLowerCase()) return false;
  const local = bounce.local.toLowerCase();
  if (found.local === local) return true;
  const tail = found.local.slice(local.length + 1);
  return found.local.startsWith(`${local}+`) && LOCAL_PART.test(tail.replaceAll("+", "-"));
}
