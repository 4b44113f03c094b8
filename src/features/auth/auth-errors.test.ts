import { afterEach, describe, expect, test, vi } from "vitest";
import { authErrorNotice } from "#src/features/auth/auth-errors.ts";

const err = (code: string) => Object.assign(new Error(code), { code });

afterEach(() => vi.restoreAllMocks());

describe("the error catalogue, row by row", () => {
  test.each([
    [
      "signIn",
      "auth/user-not-found",
      "Sign In Failed",
      "No account found with this email address.",
    ],
    ["signIn", "auth/wrong-password", "Sign In Failed", "Incorrect password. Please try again."],
    ["signIn", "auth/invalid-email", "Sign In Failed", "Please enter a valid email address."],
    [
      "signIn",
      "auth/internal-error",
      "Sign In Failed",
      "Failed to sign in. Please check your credentials.",
    ],
    [
      "signUp",
      "auth/email-already-in-use",
      "Sign Up Failed",
      "This email is already registered. Please sign in instead.",
    ],
    ["signUp", "auth/invalid-email", "Sign Up Failed", "Please enter a valid email address."],
    [
      "signUp",
      "auth/weak-password",
      "Sign Up Failed",
      "Password is too weak. Please use a stronger password.",
    ],
    [
      "signUp",
      "auth/internal-error",
      "Sign Up Failed",
      "Failed to create account. Please try again.",
    ],
    ["reset", "auth/user-not-found", "Reset Failed", "No account found with this email address."],
    ["reset", "auth/invalid-email", "Reset Failed", "Please enter a valid email address."],
    [
      "reset",
      "auth/too-many-requests",
      "Reset Failed",
      "Too many requests. Please try again later.",
    ],
    [
      "reset",
      "auth/internal-error",
      "Reset Failed",
      "Failed to send reset email. Please try again.",
    ],
  ] as const)("%s %s -> %s: %s", (action, code, title, description) => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(authErrorNotice(action, err(code))).toEqual({ title, description });
  });
});

describe("beyond the catalogue", () => {
  test("email-enumeration protection's invalid-credential shows the generic sign-in row", () => {
    expect(authErrorNotice("signIn", err("auth/invalid-credential")).description).toBe(
      "Failed to sign in. Please check your credentials.",
    );
  });

  test.each(["auth/too-many-requests", "auth/network-request-failed", "auth/user-disabled"])(
    "%s gets a sentence of its own on sign-in",
    (code) => {
      const { title, description } = authErrorNotice("signIn", err(code));
      expect(title).toBe("Sign In Failed");
      expect(description).not.toBe("Failed to sign in. Please check your credentials.");
    },
  );

  test("an unknown code or a non-Firebase error falls back and is logged", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(authErrorNotice("reset", new TypeError("boom")).description).toBe(
      "Failed to send reset email. Please try again.",
    );
    expect(warn).toHaveBeenCalledOnce();
  });
});
