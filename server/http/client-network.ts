import { isIPv4, isIPv6 } from "node:net";

/**
 * The network a client's address stands for, as rate limits count it. An IPv4 address is one
 * client. An IPv6 address is not: a home or an office gets a whole /64 (2^64 addresses) and a
 * client can take a new one for every request, so IPv6 is counted by its /64 prefix
 * (RFC 6177; the same unit as RFC 7217's stable addresses). An IPv4 address written as IPv6
 * (`::ffff:203.0.113.9`, a dual-stack socket's view of an IPv4 client) is that IPv4 address.
 * Anything else (a Unix socket's empty address) is returned as it is.
 */
export function clientNetwork(address: string): string {
  const bare = address.split("%")[0] ?? address; // a zone (fe80::1%eth0) names our interface, not the client
  if (isIPv4(bare)) return bare;
  if (!isIPv6(bare)) return address;
  const groups = ipv6Groups(bare);
  const mapped = groups.slice(0, 6).join(":") === "0:0:0:0:0:ffff";
  if (mapped) {
    const [high = 0, low = 0] = groups.slice(6).map((g) => Number.parseInt(g, 16));
    return [high >> 8, high & 255, low >> 8, low & 255].join(".");
  }
  return `${groups.slice(0, 4).join(":")}::/64`;
}

/** The eight groups of a valid IPv6 address, lower case, without leading zeros. */
function ipv6Groups(address: string): string[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const fill = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill("0");
  return [...left, ...fill, ...right].map((g) => Number.parseInt(g, 16).toString(16));
}
