import { createHmac } from "node:crypto";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  isBounceRecipient,
  messageOfVerp,
  verpAddress,
  verpToken,
} from "#server/mail/bounces/verp.ts";

const KEY = "test-verp-key";
const BOUNCES = "bounces@tieout.ai";

describe("verpToken and verpAddress", () => {
  test("the token is the id in base 36 and 16 hex characters of HMAC-SHA256 over 'verp:' + id", () => {
    const mac = createHmac("sha256", KEY).update("verp:48213").digest("hex").slice(0, 16);
    expect(verpToken(48213, KEY)).toBe(`1179-${mac}`);
    expect(verpAddress(BOUNCES, 48213, KEY)).toBe(`bounces+1179-${mac}@tieout.ai`);
  });

  test("tokens are lowercase atext and differ by id and by key", () => {
    for (const id of [0, 1, 35, 36, 999_999, Number.MAX_SAFE_INTEGER])
      expect(verpToken(id, KEY)).toMatch(/^[0-9a-z]{1,11}-[0-9a-f]{16}$/);
    expect(verpToken(7, KEY)).not.toBe(verpToken(8, KEY));
    expect(verpToken(7, KEY)).not.toBe(verpToken(7, "another-key"));
  });

  test("refuses a bounce address that has a '+' already or is not a plain address", () => {
    expect(() => verpAddress("bounces+x@tieout.ai", 1, KEY)).toThrow(/already has a "\+"/);
    for (const bad of [
      "Bounces <bounces@tieout.ai>",
      "<bounces@tieout.ai>",
      "bounces",
      "@tieout.ai",
      "bounces@",
      "boun ces@tieout.ai",
      '"bounces"@tieout.ai',
      "bounces@tieout..ai",
      "bounces@-tieout.ai",
    ])
      expect(() => verpAddress(bad, 1, KEY), bad).toThrow(/not a plain address/);
    expect(() => messageOfVerp("bounces+1-00@tieout.ai", "a+b@tieout.ai", KEY)).toThrow();
  });

  test("refuses ids that are not safe non-negative integers, and an empty key", () => {
    for (const id of [-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1])
      expect(() => verpToken(id, KEY)).toThrow();
    expect(() => verpToken(1, "")).toThrow(/non-empty key/);
  });
});

describe("messageOfVerp", () => {
  const address = verpAddress(BOUNCES, 48213, KEY);

  test("reads the id back, whatever the case and with angle brackets", () => {
    expect(messageOfVerp(address, BOUNCES, KEY)).toBe(48213);
    expect(messageOfVerp(address.toUpperCase(), BOUNCES, KEY)).toBe(48213);
    expect(messageOfVerp(` <${address}> `, BOUNCES, KEY)).toBe(48213);
    expect(messageOfVerp(address, "Bounces@TIEOUT.ai", KEY)).toBe(48213);
  });

  test("any id and key round-trip", () => {
    fc.assert(
      fc.property(
        fc.maxSafeNat(),
        fc.string({ minLength: 1 }),
        (id, key) => messageOfVerp(verpAddress(BOUNCES, id, key), BOUNCES, key) === id,
      ),
    );
  });

  test("a forged or altered token names nothing", () => {
    const [local = "", domain = ""] = address.split("@");
    const token = local.slice("bounces+".length);
    const [digits = "", mac = ""] = token.split("-");
    const flipped = `${mac.slice(0, -1)}${mac.endsWith("0") ? "1" : "0"}`;
    const forged = [
      `bounces+${digits}-${flipped}@${domain}`,
      // Another row's MAC with this row's id.
      `bounces+${digits}-${verpToken(48214, KEY).split("-")[1]}@${domain}`,
      // The same id spelled with a leading zero.
      `bounces+0${digits}-${mac}@${domain}`,
      `bounces+${digits}.${mac}@${domain}`,
      `bounces+${digits}-${mac.slice(0, 15)}@${domain}`,
      `bounces+${token}@elsewhere.example`,
      `other+${token}@${domain}`,
      `bounces+${token}x@${domain}`,
      BOUNCES,
      "not an address",
      "",
    ];
    for (const candidate of forged)
      expect(messageOfVerp(candidate, BOUNCES, KEY), candidate).toBeNull();
    expect(messageOfVerp(address, BOUNCES, "another-key")).toBeNull();
  });
});

describe("isBounceRecipient", () => {
  test("the bounce address with or without any +token, and nothing else", () => {
    expect(isBounceRecipient("bounces@tieout.ai", BOUNCES)).toBe(true);
    expect(isBounceRecipient("Bounces+1179-48e230f3b61dd0a8@TieOut.AI", BOUNCES)).toBe(true);
    expect(isBounceRecipient("bounces+anything.at-all@tieout.ai", BOUNCES)).toBe(true);
    for (const other of [
      "bounces+@tieout.ai",
      "bounces+a b@tieout.ai",
      "bouncesx@tieout.ai",
      "bounces@tieout.ai.evil.example",
      "bounces@mail.tieout.ai",
      "hello@tieout.ai",
      "someone@example.com",
      "",
    ])
      expect(isBounceRecipient(other, BOUNCES), other).toBe(false);
  });
});
