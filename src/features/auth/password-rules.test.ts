import { expect, test } from "vitest";
import { checkNewPassword } from "#src/features/auth/password-rules.ts";

test("mismatched passwords are refused first, in the notice's words", () => {
  expect(checkNewPassword("abc", "abd")).toEqual({
    title: "Passwords Don't Match",
    description: "Please make sure both passwords are the same.",
  });
});

test("a password under 6 characters is too short", () => {
  expect(checkNewPassword("12345", "12345")).toEqual({
    title: "Password Too Short",
    description: "Password must be at least 6 characters long.",
  });
  expect(checkNewPassword("123456", "123456")).toBeNull();
});
