import { useRef, useState } from "react";
import { useNavigate } from "react-router";
import { authErrorNotice, type AuthAction, type Notice } from "#src/features/auth/auth-errors.ts";
import { useRedirectWhenSignedIn } from "#src/features/auth/use-redirect-when-signed-in.ts";
import { useNotify } from "#src/ui/notices.tsx";

/**
 * The sign-in and sign-up pages' shared flow: busy while the request runs, the success notice and
 * home on success, the catalogue's notice on failure.
 */
export function useAuthForm(action: AuthAction, success: Notice) {
  const navigate = useNavigate();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const submitting = useRef(false);
  useRedirectWhenSignedIn(submitting);

  async function run(task: () => Promise<void>) {
    submitting.current = true;
    setBusy(true);
    try {
      await task();
      notify(success);
      await navigate("/", { replace: true });
    } catch (error) {
      notify({ variant: "destructive", ...authErrorNotice(action, error) });
    } finally {
      submitting.current = false;
      setBusy(false);
    }
  }

  return { busy, run, notify };
}
