import type { User } from "firebase/auth";
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from "react";
import { loadFirebaseAuth } from "#src/features/auth/firebase-client.ts";
import type { FirebaseWebConfig, PageUser } from "#src/lib/public-env.ts";

export type AuthUser = { uid: string; email: string | null };

/**
 * The site gives this account no session: sign-up is by invitation (SIGNUP_MODE=invite) and the
 * account was not invited. The account is signed out of Firebase in this browser too.
 */
export class NotInvitedError extends Error {
  readonly code = "site/not-invited";
  constructor() {
    super("access is by invitation");
    this.name = "NotInvitedError";
  }
}

/**
 * The site gives this account no session yet: sign-up is by invitation, and the address is an
 * administrator's that is not verified. A verification mail has been sent to it and the account
 * is signed out in this browser; once the link is opened, signing in gives an administrator's
 * session (decision 024).
 */
export class VerifyAddressFirstError extends Error {
  readonly code = "site/verify-address";
  constructor() {
    super("the address must be verified first");
    this.name = "VerifyAddressFirstError";
  }
}

/** How a token sync ended: a session, a refusal (not invited, or verify first), anything else. */
type SyncOutcome = "ok" | "not-invited" | "verify-address" | "failed";

export type AuthContextValue = {
  /** Null when signed out. Starts from the server's session cookie, then follows Firebase. */
  currentUser: AuthUser | null;
  /** True until Firebase has reported the auth state, once it has been asked to. */
  loading: boolean;
  /**
   * Whether the server named the signed-in visitor an administrator (in the page, or in answer to
   * this browser's sign-in), so the header offers the admin. The admin pages check for themselves.
   */
  isAdmin: boolean;
  /** `invitation`: the token of the invitation link the visitor came from, sent with the sync. */
  signInWithEmail: (email: string, password: string, invitation?: string | null) => Promise<void>;
  signUpWithEmail: (email: string, password: string, invitation?: string | null) => Promise<void>;
  logout: () => Promise<void>;
  resetPassword: (email: string) => Promise<void>;
  /** Sends the signed-in account's address a new verification mail. */
  sendVerification: () => Promise<void>;
  /**
   * Changes the password after checking the current one, then signs in again with the new one,
   * so this browser's session outlives the revocation a password change causes (decision 011).
   */
  changePassword: (currentPassword: string, newPassword: string) => Promise<void>;
  /** Checks the password again; resolves to an ID token minted just now (proof for deletion). */
  reauthenticate: (password: string) => Promise<string>;
  /** Starts loading the Firebase SDK now; pages that will need it soon call this on mount. */
  prepare: () => void;
  config: FirebaseWebConfig;
};

const AuthContext = createContext<AuthContextValue | null>(null);

/**
 * After the sign-in's own sync: a refusal as not invited signs the visitor out and says so; an
 * administrator's address to verify first gets its verification mail, then the same.
 */
async function requireSession(
  outcome: SyncOutcome,
  signOut: () => Promise<void>,
  sendVerification: () => Promise<void>,
) {
  if (outcome === "verify-address") {
    await sendVerification().catch(() => undefined);
    await signOut();
    throw new VerifyAddressFirstError();
  }
  if (outcome !== "not-invited") return;
  await signOut();
  throw new NotInvitedError();
}

/**
 * The reason the session endpoint gave for a 401 ("stale-token", "reauthenticate") or a 403
 * ("not-invited", "verify-address"), if any.
 */
async function refusalReason(response: Response): Promise<string | null> {
  if (response.status !== 401 && response.status !== 403) return null;
  const body = (await response.json().catch(() => null)) as { error?: unknown } | null;
  return typeof body?.error === "string" ? body.error : null;
}

async function postSession(
  user: User,
  forceRefresh: boolean,
  invitation: string | null,
): Promise<Response> {
  const token = await user.getIdToken(forceRefresh);
  return fetch("/api/session", {
    method: "POST",
    headers: {
      Authorization: `Bearer ${token}`,
      ...(invitation ? { "Content-Type": "application/json" } : {}),
    },
    body: invitation ? JSON.stringify({ invitation }) : undefined,
    credentials: "same-origin",
  });
}

/**
 * Auth state for the whole site. The server's session cookie gives the first state, so the header
 * is right in the HTML; Firebase, loaded after first paint, is then the source of truth and keeps
 * the cookie in step (token sync, decision 004).
 */
export function AuthProvider({
  config,
  serverUser,
  children,
}: {
  config: FirebaseWebConfig;
  serverUser: PageUser | null;
  children: ReactNode;
}) {
  const [currentUser, setCurrentUser] = useState<AuthUser | null>(() =>
    serverUser ? { uid: serverUser.uid, email: serverUser.email } : null,
  );
  /** The account this browser's own sign-in was told is an administrator's, if any. */
  const [syncedAdminUid, setSyncedAdminUid] = useState<string | null>(null);
  const [loading, setLoading] = useState(serverUser !== null);
  /** Whom the server's cookie names right now, so we sync only when it differs. */
  const serverUid = useRef<string | null>(serverUser?.uid ?? null);
  const syncing = useRef<Promise<unknown> | null>(null);
  const subscribed = useRef(false);
  /** The invitation of the sign-up or sign-in under way: every sync it causes carries it. */
  const invitation = useRef<string | null>(null);
  /** The account the server refused as not invited, so the same sign-in does not ask twice. */
  const refusedUid = useRef<string | null>(null);

  const syncSession = useCallback(
    (user: User | null, signOut?: () => Promise<void>): Promise<SyncOutcome> => {
      const run = async (): Promise<SyncOutcome> => {
        if (user) {
          if (serverUid.current === user.uid) return "ok";
          if (refusedUid.current === user.uid) return "not-invited";
          let response = await postSession(user, false, invitation.current);
          let reason = await refusalReason(response);
          // The server takes only tokens minted in the last five minutes; a cached one may be older.
          if (reason === "stale-token") {
            response = await postSession(user, true, invitation.current);
            reason = await refusalReason(response);
          }
          if (response.ok) {
            serverUid.current = user.uid;
            const body = (await response.json().catch(() => null)) as { admin?: unknown } | null;
            setSyncedAdminUid(body?.admin === true ? user.uid : null);
            return "ok";
          }
          // Sign-up is by invitation, and this account has none: it is signed out here too.
          if (reason === "not-invited") {
            refusedUid.current = user.uid;
            if (signOut) await signOut();
            return "not-invited";
          }
          // An administrator's address not verified yet: the sign-in or sign-up says so.
          if (reason === "verify-address") return "verify-address";
          // The password was typed longer ago than a session may last: ask for it again.
          if (reason === "reauthenticate" && signOut) await signOut();
          else console.warn("Session sync was refused:", response.status);
          return "failed";
        }
        if (serverUid.current !== null) {
          const response = await fetch("/api/session", {
            method: "DELETE",
            credentials: "same-origin",
          });
          if (response.ok) serverUid.current = null;
        }
        return "ok";
      };
      const next = (syncing.current ?? Promise.resolve())
        .then(run, run)
        .catch((error: unknown): SyncOutcome => {
          console.warn("Session sync failed:", error);
          return "failed";
        });
      syncing.current = next;
      return next;
    },
    [],
  );

  /**
   * Runs a sign-in or sign-up with its invitation: set before Firebase reports the new user, so
   * the sync that report starts carries it too. A new attempt may be answered afresh.
   */
  const withInvitation = useCallback(async (token: string | null, task: () => Promise<void>) => {
    invitation.current = token;
    refusedUid.current = null;
    try {
      await task();
    } finally {
      invitation.current = null;
    }
  }, []);

  const load = useCallback(async () => {
    const firebase = await loadFirebaseAuth(config);
    if (!subscribed.current) {
      subscribed.current = true;
      firebase.sdk.onIdTokenChanged(firebase.auth, (user) => {
        setCurrentUser(user ? { uid: user.uid, email: user.email } : null);
        setLoading(false);
        void syncSession(user, () => firebase.sdk.signOut(firebase.auth));
      });
    }
    return firebase;
  }, [config, syncSession]);

  /** The Firebase user of this browser, once Firebase has restored it. */
  const signedInUser = useCallback(async () => {
    const firebase = await load();
    await firebase.auth.authStateReady();
    const user = firebase.auth.currentUser;
    if (!user?.email)
      throw Object.assign(new Error("not signed in"), { code: "auth/no-current-user" });
    return { ...firebase, user, email: user.email };
  }, [load]);

  const prepare = useCallback(() => {
    setLoading((was) => was || !subscribed.current);
    load().catch((error: unknown) => {
      console.warn("Firebase could not be loaded:", error);
      setLoading(false);
    });
  }, [load]);

  // A signed-in visitor: confirm the session with Firebase once the page has painted.
  useEffect(() => {
    if (serverUser === null) return;
    if ("requestIdleCallback" in window) window.requestIdleCallback(() => prepare());
    else setTimeout(prepare, 200);
  }, [serverUser, prepare]);

  const uid = currentUser?.uid;
  const isAdmin =
    uid !== undefined &&
    (syncedAdminUid === uid || (serverUser?.admin === true && serverUser.uid === uid));

  const value = useMemo<AuthContextValue>(
    () => ({
      currentUser,
      loading,
      isAdmin,
      config,
      prepare,
      async signInWithEmail(email, password, invited = null) {
        try {
          const { auth, sdk } = await load();
          await withInvitation(invited, async () => {
            const credential = await sdk.signInWithEmailAndPassword(auth, email, password);
            await requireSession(
              await syncSession(credential.user),
              () => sdk.signOut(auth),
              () => sdk.sendEmailVerification(credential.user),
            );
          });
        } catch (error) {
          // Not being invited, or having to verify first, is an answer, not a failure of the site.
          if (!(error instanceof NotInvitedError || error instanceof VerifyAddressFirstError))
            console.error("Error signing in with email", error);
          throw error;
        }
      },
      async signUpWithEmail(email, password, invited = null) {
        try {
          const { auth, sdk } = await load();
          await withInvitation(invited, async () => {
            const credential = await sdk.createUserWithEmailAndPassword(auth, email, password);
            await requireSession(
              await syncSession(credential.user),
              () => sdk.signOut(auth),
              () => sdk.sendEmailVerification(credential.user),
            );
            // The address's verification mail, at once. Should it fail, the account stands and
            // its page offers to send it again.
            await sdk.sendEmailVerification(credential.user).catch(() => undefined);
          });
        } catch (error) {
          if (!(error instanceof NotInvitedError || error instanceof VerifyAddressFirstError))
            console.error("Error signing up with email", error);
          throw error;
        }
      },
      async logout() {
        try {
          const { auth, sdk } = await load();
          await sdk.signOut(auth);
          setCurrentUser(null);
          await syncSession(null);
        } catch (error) {
          console.error("Error signing out", error);
          throw error;
        }
      },
      async resetPassword(email) {
        try {
          const { auth, sdk } = await load();
          await sdk.sendPasswordResetEmail(auth, email);
        } catch (error) {
          console.error("Error sending password reset email", error);
          throw error;
        }
      },
      async sendVerification() {
        const { sdk, user } = await signedInUser();
        await sdk.sendEmailVerification(user);
      },
      async changePassword(currentPassword, newPassword) {
        const { auth, sdk, user, email } = await signedInUser();
        await sdk.reauthenticateWithCredential(
          user,
          sdk.EmailAuthProvider.credential(email, currentPassword),
        );
        await sdk.updatePassword(user, newPassword);
        // The change ended every session signed in before it, this one too: sign in anew and
        // exchange that sign-in for a new session.
        const credential = await sdk.signInWithEmailAndPassword(auth, email, newPassword);
        serverUid.current = null;
        await syncSession(credential.user);
      },
      async reauthenticate(password) {
        const { sdk, user, email } = await signedInUser();
        const credential = await sdk.reauthenticateWithCredential(
          user,
          sdk.EmailAuthProvider.credential(email, password),
        );
        return credential.user.getIdToken(true);
      },
    }),
    [
      currentUser,
      loading,
      isAdmin,
      config,
      prepare,
      load,
      syncSession,
      signedInUser,
      withInvitation,
    ],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const context = useContext(AuthContext);
  if (!context) throw new Error("useAuth must be used within an AuthProvider");
  return context;
}
