import { useEffect, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import { useAuth } from "#src/features/auth/auth-provider.tsx";
import { Button } from "#src/ui/button.tsx";
import { useNotify } from "#src/ui/notices.tsx";

/**
 * The header's account controls: 'Sign In' for visitors; 'Account' (the /account page) and
 * 'Sign Out' for signed-in users.
 */
export function AuthSlot() {
  const { currentUser, logout } = useAuth();
  const navigate = useNavigate();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const signInLink = useRef<HTMLAnchorElement>(null);
  /** Sign Out had focus when pressed: its replacement, Sign In, takes it over. */
  const keepFocus = useRef(false);

  useEffect(() => {
    if (currentUser || !keepFocus.current) return;
    keepFocus.current = false;
    // A page change moves focus to the new page's heading (root); on the same page, stay here.
    if (document.activeElement === document.body || document.activeElement === null)
      signInLink.current?.focus();
  }, [currentUser]);

  if (!currentUser) {
    return (
      <Button asChild variant="ghost" size="sm">
        <Link ref={signInLink} to="/login">
          Sign In
        </Link>
      </Button>
    );
  }

  async function handleSignOut(button: HTMLButtonElement) {
    keepFocus.current = document.activeElement === button;
    setBusy(true);
    try {
      await logout();
      await navigate("/");
    } catch {
      notify({
        variant: "destructive",
        title: "Sign Out Failed",
        description: "Please try again.",
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div data-signed-in="" className="flex items-center gap-1 sm:gap-2">
      <Button asChild variant="ghost" size="sm">
        <Link to="/account">Account</Link>
      </Button>
      <Button
        type="button"
        variant="ghost"
        size="sm"
        disabled={busy}
        onClick={(event) => void handleSignOut(event.currentTarget)}
      >
        Sign Out
      </Button>
    </div>
  );
}
