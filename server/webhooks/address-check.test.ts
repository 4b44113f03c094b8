import { describe, expect, test } from "vitest";
import { checkedAddress, isPublicAddress, RefusedHost } from "#server/webhooks/address-check.ts";

describe("where a webhook may go", () => {
  test("public addresses may; loopback, private, shared, link-local, reserved and mapped ones may not", () => {
    for (const address of ["93.184.216.34", "8.8.8.8", "2606:4700::1111", "1.1.1.1"])
      expect(isPublicAddress(address), address).toBe(true);
    for (const address of [
      "127.0.0.1",
      "127.255.0.9",
      "0.0.0.0",
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "100.64.0.1",
      "169.254.169.254",
      "224.0.0.1",
      "255.255.255.255",
      "::1",
      "::",
      "fe80::1",
      "fd00::1",
      "fc00::1",
      "ff02::1",
      "::ffff:127.0.0.1",
      "::FFFF:10.0.0.1",
      "64:ff9b::7f00:1",
      "not an address",
      "",
    ])
      expect(isPublicAddress(address), address).toBe(false);
  });

  test("a name is refused when any address it resolves to is private, and allowed by the setting", async () => {
    const resolve = (answers: string[]) => () =>
      Promise.resolve(
        answers.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }) as const),
      );
    const url = new URL("https://hooks.example.com/in");
    await expect(checkedAddress(url, false, resolve(["93.184.216.34"]))).resolves.toEqual({
      address: "93.184.216.34",
      family: 4,
    });
    // One public answer and one inside: refused, whichever would have been used.
    await expect(
      checkedAddress(url, false, resolve(["93.184.216.34", "10.0.0.5"])),
    ).rejects.toThrow(/resolves to 10\.0\.0\.5, a loopback, private or link-local address/);
    await expect(checkedAddress(url, true, resolve(["10.0.0.5"]))).resolves.toMatchObject({
      address: "10.0.0.5",
    });
    await expect(checkedAddress(url, false, resolve([]))).rejects.toBeInstanceOf(RefusedHost);
    await expect(
      checkedAddress(url, false, () => Promise.reject(new Error("ENOTFOUND"))),
    ).rejects.toThrow(/could not be resolved/);
  });

  test("an address written in the URL is checked as it is, brackets and all", async () => {
    const never = () => Promise.reject(new Error("a literal is not looked up"));
    await expect(checkedAddress(new URL("https://127.0.0.1/x"), false, never)).rejects.toThrow(
      /127\.0\.0\.1/,
    );
    await expect(checkedAddress(new URL("https://[::1]:8443/x"), false, never)).rejects.toThrow(
      RefusedHost,
    );
    // The URL parser's own spellings of loopback (decimal, hex) are read as the address they are.
    await expect(checkedAddress(new URL("https://2130706433/x"), false, never)).rejects.toThrow(
      /127\.0\.0\.1/,
    );
    await expect(checkedAddress(new URL("https://0x7f.1/x"), false, never)).rejects.toThrow(
      RefusedHost,
    );
    await expect(
      checkedAddress(new URL("https://[::ffff:169.254.169.254]/x"), false, never),
    ).rejects.toThrow(RefusedHost);
    await expect(checkedAddress(new URL("https://8.8.8.8/x"), false, never)).resolves.toEqual({
      address: "8.8.8.8",
      family: 4,
    });
  });
});
