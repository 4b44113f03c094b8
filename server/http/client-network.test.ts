import { describe, expect, it } from "vitest";
import { clientNetwork } from "#server/http/client-network.ts";

describe("the network a rate limit counts", () => {
  it("counts an IPv4 client by its address", () => {
    expect(clientNetwork("203.0.113.9")).toBe("203.0.113.9");
    expect(clientNetwork("127.0.0.1")).toBe("127.0.0.1");
  });

  it("counts every address of one IPv6 /64 as one client, however it is written", () => {
    const network = "2001:db8:1:2::/64";
    for (const address of [
      "2001:db8:1:2::1",
      "2001:db8:1:2:a1b2:c3d4:e5f6:789",
      "2001:0DB8:0001:0002:ffff:ffff:ffff:ffff",
      "2001:db8:1:2:0:0:0:0",
    ])
      expect(clientNetwork(address)).toBe(network);
  });

  it("tells different /64s apart", () => {
    expect(clientNetwork("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(clientNetwork("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(clientNetwork("::1")).toBe("0:0:0:0::/64");
    expect(clientNetwork("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
  });

  it("reads an IPv4 address written as IPv6 as the IPv4 client it is", () => {
    expect(clientNetwork("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(clientNetwork("::FFFF:cb00:7109")).toBe("203.0.113.9");
  });

  it("keeps IPv4 embedded in another IPv6 prefix as IPv6", () => {
    expect(clientNetwork("64:ff9b::203.0.113.9")).toBe("64:ff9b:0:0::/64");
  });

  it("returns what is not an address as it is", () => {
    expect(clientNetwork("")).toBe("");
    expect(clientNetwork("unix")).toBe("unix");
  });
});
