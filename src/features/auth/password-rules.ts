import type { Notice } from "#src/features/auth/auth-errors.ts";

export const MIN_PASSWORD_LENGTH = 6;

/** The two checks on a new password, in this order: matching first, then length. */
export function checkNewPassword(password: string, confirmPassword: string): Notice | null {
  if (password !== confirmPassword) {
    return {
      title: "Passwords Don't Match",
      description: "Please make sure both passwords are the same.",
    };
  }
  if (password.length < MIN_PASSWORD_LENGTH) {
    return {
      title: "Password Too Short",
      description: `Password must be at least ${MIN_PASSWORD_LENGTH} characters long.`,
    };
  }
  return null;
}
