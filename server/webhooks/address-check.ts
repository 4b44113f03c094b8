/**
 * Where a webhook may be delivered (decision 046): a host whose every address is public. Loopback,
 * private, shared (carrier-grade NAT), link-local, multicast and reserved addresses are refused,
 * so an administrator's typing (or an attacker's, with an admin's session) cannot aim the server
 * at itself, its metadata service or the office network. The check runs when an endpoint is saved
 * and again before every delivery, and the delivery connects to the address that was checked:
 * a name that resolves to a public address once and a private one the next time (DNS rebinding)
 * gets no second lookup.
 */
import { BlockList, isIP } from "node:net";
import { lookup } from "node:dns/promises";

const REFUSED = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  REFUSED.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  REFUSED.addSubnet(net, prefix, "ipv6");

/** Whether an address (v4 or v6, a v4 inside v6 read as v4) is one a webhook may reach. */
export function isPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPublicAddress(mapped[1]!);
  const family = isIP(address);
  if (family === 4) return !REFUSED.check(address, "ipv4");
  if (family === 6) return !REFUSED.check(address, "ipv6");
  return false;
}

export type Resolved = { address: string; family: 4 | 6 };

/** How a name becomes addresses: the system's resolver, or a test's. */
export type Resolve = (host: string) => Promise<Resolved[]>;

const systemResolve: Resolve = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

export class RefusedHost extends Error {
  override name = "RefusedHost";
}

/**
 * The address to connect to for `url`'s host: its first, once every one it resolves to is public
 * (or `allowPrivate`). Throws RefusedHost with a sentence otherwise.
 */
export async function checkedAddress(
  url: URL,
  allowPrivate: boolean,
  resolve: Resolve = systemResolve,
): Promise<Resolved> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const literal = isIP(host);
  let found: Resolved[];
  if (literal) found = [{ address: host, family: literal === 6 ? 6 : 4 }];
  else {
    try {
      found = await resolve(host);
    } catch {
      throw new RefusedHost(`${host} could not be resolved`);
    }
  }
  if (found.length === 0) throw new RefusedHost(`${host} could not be resolved`);
  if (!allowPrivate) {
    const inner = found.find((a) => !isPublicAddress(a.address));
    if (inner)
      throw new RefusedHost(
        `${host} resolves to ${inner.address}, a loopback, private or link-local address`,
      );
  }
  return found[0]!;
}
