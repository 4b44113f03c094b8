import { describe, expect, test } from "vitest";
import {
  ADMIN_IDLE_MAX_MS,
  ADMIN_VERIFIED_MAX_MS,
  adminLevel,
  passwordIsFresh,
  STEP_UP_MS,
} from "#server/identity/admin-level.ts";

const at = (ms: number) => new Date(Date.UTC(2026, 10, 27, 9) + ms);
const MINUTE = 60_000;
const none = {
  verifiedAt: null,
  verifiedBy: null,
  stepUpAt: null,
  seenAt: null,
  mailboxProvenAt: null,
};
const verified = (by: "passkey" | "recovery" = "passkey") => ({
  ...none,
  verifiedAt: at(0),
  verifiedBy: by,
  stepUpAt: by === "passkey" ? at(0) : null,
  seenAt: at(0),
});

describe("an admin session's level", () => {
  test("a password alone is signed in, never verified", () => {
    expect(adminLevel(none, at(0))).toEqual({ kind: "signed-in", lapsed: "never" });
  });

  test("a passkey verifies, with a step-up good for 15 minutes", () => {
    expect(adminLevel(verified(), at(STEP_UP_MS - 1))).toEqual({
      kind: "verified",
      stepUpUntil: at(STEP_UP_MS),
    });
    // 16 minutes on, still verified (used within the hour), no longer stepped up.
    const later = { ...verified(), seenAt: at(10 * MINUTE) };
    expect(adminLevel(later, at(16 * MINUTE))).toEqual({ kind: "verified", stepUpUntil: null });
  });

  test("an hour without an admin request asks for the passkey again", () => {
    expect(adminLevel(verified(), at(ADMIN_IDLE_MAX_MS - 1)).kind).toBe("verified");
    expect(adminLevel(verified(), at(ADMIN_IDLE_MAX_MS))).toEqual({
      kind: "signed-in",
      lapsed: "idle",
    });
  });

  test("12 hours after the first verification it ends however busy the session was", () => {
    const busy = {
      ...verified(),
      stepUpAt: at(ADMIN_VERIFIED_MAX_MS - MINUTE),
      seenAt: at(ADMIN_VERIFIED_MAX_MS - MINUTE),
    };
    expect(adminLevel(busy, at(ADMIN_VERIFIED_MAX_MS - 1)).kind).toBe("verified");
    expect(adminLevel(busy, at(ADMIN_VERIFIED_MAX_MS))).toEqual({
      kind: "signed-in",
      lapsed: "expired",
    });
  });

  test("a recovery code lets in to register a passkey, nothing more", () => {
    expect(adminLevel(verified("recovery"), at(MINUTE))).toEqual({ kind: "recovering" });
  });

  test("a first passkey needs a password typed in the last 5 minutes", () => {
    expect(passwordIsFresh(at(0), at(5 * MINUTE - 1))).toBe(true);
    expect(passwordIsFresh(at(0), at(5 * MINUTE))).toBe(false);
  });
});
