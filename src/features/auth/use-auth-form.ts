import { useRef, useState } from "react";
import { useNavigate } from "react-router";
import { NotInvitedError, VerifyAddressFirstError } from "#src/features/auth/auth-provider.tsx";
import { authErrorNotice, type AuthAction, type Notice } from "#src/features/auth/auth-errors.ts";
import { useRedirectWhenSignedIn } from "#src/features/auth/use-redirect-when-signed-in.ts";
import { useNotify } from "#src/ui/notices.tsx";

/**
 * The sign-in and sign-up pages' shared flow: busy while the request runs, the success notice and
 * home on success, the catalogue's notice on failure. An account refused because sign-up is by
 * invitation is not a failure: `refused` says why ("not-invited", or "verify-address" for an
 * administrator's address not verified yet) and the page says how to get in.
 */
export function useAuthForm(action: AuthAction, success: Notice) {
  const navigate = useNavigate();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<"not-invited" | "verify-address" | null>(null);
  const submitting = useRef(false);
  useRedirectWhenSignedIn(submitting);

  async function run(task: () => Promise<void>) {
    submitting.current = true;
    setBusy(true);
    setRefused(null);
    try {
      await task();
      notify(success);
      await navigate("/", { replace: true });
    } catch (error) {
      if (error instanceof NotInvitedError) setRefused("not-invited");
      else if (error instanceof VerifyAddressFirstError) setRefused("verify-address");
      else notify({ variant: "destructive", ...authErrorNotice(action, error) });
    } finally {
      submitting.current = false;
      setBusy(false);
    }
  }

  return { busy, run, notify, refused };
}
