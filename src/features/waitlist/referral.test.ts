import { describe, expect, test } from "vitest";
import { referralCodeOf, shareLinkOf } from "#src/features/waitlist/referral.ts";

describe("referral codes", () => {
  test("a code is 16 hexadecimal characters, read in any case and without spaces around it", () => {
    expect(referralCodeOf("0123456789abcdef")).toBe("0123456789abcdef");
    expect(referralCodeOf(" 0123456789ABCDEF\n")).toBe("0123456789abcdef");
  });

  test("anything else is no code", () => {
    for (const value of [
      undefined,
      null,
      42,
      ["0123456789abcdef"],
      "",
      "0123456789abcde",
      "0123456789abcdef0",
      "0123456789abcdeg",
      "0123456789abcde\u0000",
      "0123456789abcd ef",
    ])
      expect(referralCodeOf(value)).toBeNull();
  });

  test("the shared link is the waitlist's page with the code", () => {
    expect(shareLinkOf("https://tieout.ai", "0123456789abcdef")).toBe(
      "https://tieout.ai/waitlist?ref=0123456789abcdef",
    );
  });
});
