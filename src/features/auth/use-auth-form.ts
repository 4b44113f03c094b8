import { useRef, useState } from "react";
import { useNavigate } from "react-router";
import { NotInvitedError } from "#src/features/auth/auth-provider.tsx";
import { authErrorNotice, type AuthAction, type Notice } from "#src/features/auth/auth-errors.ts";
import { useRedirectWhenSignedIn } from "#src/features/auth/use-redirect-when-signed-in.ts";
import { useNotify } from "#src/ui/notices.tsx";

/**
 * The sign-in and sign-up pages' shared flow: busy while the request runs, the success notice and
 * home on success, the catalogue's notice on failure. An account refused because sign-up is by
 * invitation is not a failure: `notInvited` is set and the page says how to get in.
 */
export function useAuthForm(action: AuthAction, success: Notice) {
  const navigate = useNavigate();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const [notInvited, setNotInvited] = useState(false);
  const submitting = useRef(false);
  useRedirectWhenSignedIn(submitting);

  async function run(task: () => Promise<void>) {
    submitting.current = true;
    setBusy(true);
    setNotInvited(false);
    try {
      await task();
      notify(success);
      await navigate("/", { replace: true });
    } catch (error) {
      if (error instanceof NotInvitedError) setNotInvited(true);
      else notify({ variant: "destructive", ...authErrorNotice(action, error) });
    } finally {
      submitting.current = false;
      setBusy(false);
    }
  }

  return { busy, run, notify, notInvited };
}
