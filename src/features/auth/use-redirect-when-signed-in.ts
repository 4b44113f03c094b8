import { useEffect, type RefObject } from "react";
import { useNavigate } from "react-router";
import { useAuth } from "#src/features/auth/auth-provider.tsx";

/**
 * Sign-in and sign-up pages: start loading Firebase at once, and send a visitor who turns out to be
 * signed in to the home page. The server already redirects when its cookie says so; this
 * covers a browser whose Firebase session outlived the cookie. Not while this page's own form is
 * submitting: that flow navigates by itself, with its notice.
 */
export function useRedirectWhenSignedIn(submitting: RefObject<boolean>) {
  const { currentUser, prepare } = useAuth();
  const navigate = useNavigate();
  useEffect(() => prepare(), [prepare]);
  useEffect(() => {
    if (currentUser && !submitting.current) void navigate("/", { replace: true });
  }, [currentUser, navigate, submitting]);
}
