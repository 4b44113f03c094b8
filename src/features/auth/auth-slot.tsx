import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { useAuth } from "#src/features/auth/auth-provider.tsx";
import { Button } from "#src/ui/button.tsx";
import { useNotify } from "#src/ui/notices.tsx";

/** The header's account control: 'Sign In' for visitors, 'Sign Out' for signed-in users. */
export function AuthSlot() {
  const { currentUser, logout } = useAuth();
  const navigate = useNavigate();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);

  if (!currentUser) {
    return (
      <Button asChild variant="ghost" size="sm">
        <Link to="/login">Sign In</Link>
      </Button>
    );
  }

  async function handleSignOut() {
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
    <Button
      type="button"
      variant="ghost"
      size="sm"
      disabled={busy}
      onClick={() => void handleSignOut()}
    >
      Sign Out
    </Button>
  );
}
