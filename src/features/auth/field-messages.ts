import type { FieldMessages } from "#src/ui/use-field-errors.ts";

/** What the account forms say about an empty or malformed field. */
export const AUTH_FIELD_MESSAGES: FieldMessages = {
  email: {
    valueMissing: "Please enter your email address.",
    typeMismatch: "Please enter a valid email address.",
  },
  password: { valueMissing: "Please enter your password." },
  confirmPassword: { valueMissing: "Please confirm your password." },
};
