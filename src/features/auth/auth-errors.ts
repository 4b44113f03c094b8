/**
 * Firebase error codes to the sentences a visitor reads in a notice. Unknown codes get the
 * action's generic sentence and are logged, so a new code shows up in the console, not to the user.
 */
export type AuthAction =
  "signIn" | "signUp" | "reset" | "confirmReset" | "changePassword" | "verify" | "reauthenticate";
export type Notice = { title: string; description: string };

const TITLES: Record<AuthAction, string> = {
  signIn: "Sign In Failed",
  signUp: "Sign Up Failed",
  reset: "Reset Failed",
  confirmReset: "Password Not Changed",
  changePassword: "Password Not Changed",
  verify: "Mail Not Sent",
  reauthenticate: "Account Not Deleted",
};

const FALLBACK: Record<AuthAction, string> = {
  signIn: "Failed to sign in. Please check your credentials.",
  signUp: "Failed to create account. Please try again.",
  reset: "Failed to send reset email. Please try again.",
  confirmReset: "Failed to change your password. Please try again.",
  changePassword: "Failed to change your password. Please try again.",
  verify: "Failed to send the verification mail. Please try again.",
  reauthenticate: "We could not check your password. Please try again.",
};

const WRONG_CURRENT = "The current password is not right. Please try again.";
const NOT_SIGNED_IN = "This browser is no longer signed in. Please sign in again.";

const INVALID_EMAIL = "Please enter a valid email address.";
const TOO_MANY = "Too many requests. Please try again later.";
const NETWORK = "We could not reach the sign-in service. Check your connection and try again.";
const DISABLED = "This account has been disabled. Please contact us for help.";

const MESSAGES: Record<AuthAction, Record<string, string>> = {
  changePassword: {
    "auth/wrong-password": WRONG_CURRENT,
    "auth/invalid-credential": WRONG_CURRENT,
    "auth/weak-password": "Password is too weak. Please use a stronger password.",
    "auth/too-many-requests":
      "Too many failed attempts. Please wait a few minutes or reset your password.",
    "auth/no-current-user": NOT_SIGNED_IN,
    "auth/user-token-expired": NOT_SIGNED_IN,
    "auth/network-request-failed": NETWORK,
  },
  verify: {
    "auth/too-many-requests": "Too many mails were sent. Please wait a few minutes.",
    "auth/no-current-user": NOT_SIGNED_IN,
    "auth/user-token-expired": NOT_SIGNED_IN,
    "auth/network-request-failed": NETWORK,
  },
  reauthenticate: {
    "auth/wrong-password": "The password is not right. Your account was not deleted.",
    "auth/invalid-credential": "The password is not right. Your account was not deleted.",
    "auth/too-many-requests":
      "Too many failed attempts. Please wait a few minutes or reset your password.",
    "auth/no-current-user": NOT_SIGNED_IN,
    "auth/user-token-expired": NOT_SIGNED_IN,
    "auth/network-request-failed": NETWORK,
  },
  signIn: {
    "auth/user-not-found": "No account found with this email address.",
    "auth/wrong-password": "Incorrect password. Please try again.",
    "auth/invalid-email": INVALID_EMAIL,
    // Projects with email-enumeration protection answer both of the above with this one.
    "auth/invalid-credential": FALLBACK.signIn,
    "auth/too-many-requests":
      "Too many failed attempts. Please wait a few minutes or reset your password.",
    "auth/user-disabled": DISABLED,
    "auth/network-request-failed": NETWORK,
  },
  signUp: {
    "auth/email-already-in-use": "This email is already registered. Please sign in instead.",
    "auth/invalid-email": INVALID_EMAIL,
    "auth/weak-password": "Password is too weak. Please use a stronger password.",
    "auth/too-many-requests": TOO_MANY,
    "auth/network-request-failed": NETWORK,
  },
  reset: {
    "auth/user-not-found": "No account found with this email address.",
    "auth/invalid-email": INVALID_EMAIL,
    "auth/too-many-requests": TOO_MANY,
    "auth/user-disabled": DISABLED,
    "auth/network-request-failed": NETWORK,
  },
  confirmReset: {
    "auth/expired-action-code": "This reset link has expired. Ask for a new one.",
    "auth/invalid-action-code":
      "This reset link is not valid or was already used. Ask for a new one.",
    "auth/weak-password": "Password is too weak. Please use a stronger password.",
    "auth/too-many-requests": TOO_MANY,
    "auth/network-request-failed": NETWORK,
  },
};

export function authErrorCode(error: unknown): string | null {
  if (
    typeof error === "object" &&
    error !== null &&
    "code" in error &&
    typeof error.code === "string"
  ) {
    return error.code;
  }
  return null;
}

export function authErrorNotice(action: AuthAction, error: unknown): Notice {
  const code = authErrorCode(error);
  const known = code ? MESSAGES[action][code] : undefined;
  if (!known) console.warn(`Unmapped auth error for ${action}:`, code ?? error);
  return { title: TITLES[action], description: known ?? FALLBACK[action] };
}
