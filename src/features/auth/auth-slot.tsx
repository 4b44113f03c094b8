import { useEffect, useRef, useState, type ReactNode } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { useAuth } from "#src/features/auth/auth-provider.tsx";
import { Button } from "#src/ui/button.tsx";
import { useNotify } from "#src/ui/notices.tsx";

/**
 * The header's account controls: 'Sign In' for visitors; 'Account' (the /account page) and
 * 'Sign Out' for signed-in users, and 'Admin' (the /admin dashboard) before them for
 * administrators. Anonymous pages, the ones shared between visitors, never carry the latter.
 */
export function AuthSlot() {
  const { currentUser, isAdmin, logout } = useAuth();
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

  const signOut = (
    <Button
      type="button"
      variant="ghost"
      size="sm"
      disabled={busy}
      onClick={(event) => void handleSignOut(event.currentTarget)}
      className="max-sm:justify-start"
    >
      Sign Out
    </Button>
  );
  const links = (
    <>
      {isAdmin ? (
        <Button asChild variant="ghost" size="sm" className="max-sm:justify-start">
          <Link to="/admin">Admin</Link>
        </Button>
      ) : null}
      <Button asChild variant="ghost" size="sm" className="max-sm:justify-start">
        <Link to="/account">Account</Link>
      </Button>
    </>
  );

  return (
    <div data-signed-in="">
      <div className="flex items-center gap-2 max-sm:hidden">
        {links}
        {signOut}
      </div>
      <PhoneMenu>
        {links}
        {signOut}
      </PhoneMenu>
    </div>
  );
}

/**
 * On a phone the account's controls sit behind one 'Menu' button, a native disclosure: it opens
 * without JavaScript too. It closes on a page change, on Escape (focus back on 'Menu') and on a
 * press outside it.
 */
function PhoneMenu({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const menu = useRef<HTMLDetailsElement>(null);

  const shownFor = useRef(pathname);
  useEffect(() => {
    if (shownFor.current === pathname) return;
    shownFor.current = pathname;
    if (menu.current) menu.current.open = false;
  }, [pathname]);

  // Listened for all along, not only once React has heard the menu open: it may have opened
  // before the app ran, and a key pressed right after a tap must still find the listener.
  useEffect(() => {
    function handlePointerDown(event: PointerEvent) {
      const details = menu.current;
      if (details?.open && !details.contains(event.target as Node)) details.open = false;
    }
    function handleKeyDown(event: KeyboardEvent) {
      const details = menu.current;
      if (event.key !== "Escape" || !details?.open) return;
      details.open = false;
      details.querySelector("summary")?.focus();
    }
    document.addEventListener("pointerdown", handlePointerDown);
    document.addEventListener("keydown", handleKeyDown);
    return () => {
      document.removeEventListener("pointerdown", handlePointerDown);
      document.removeEventListener("keydown", handleKeyDown);
    };
  }, []);

  return (
    <details ref={menu} className="relative sm:hidden">
      <Button
        asChild
        variant="ghost"
        size="sm"
        className="list-none [&::-webkit-details-marker]:hidden"
      >
        <summary>
          Menu
          <svg
            viewBox="0 0 16 16"
            aria-hidden="true"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.8"
            className="transition-transform [[open]>summary>&]:rotate-180"
          >
            <path d="M3 6l5 5 5-5" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </summary>
      </Button>
      <div className="absolute top-full right-0 mt-2 flex w-44 flex-col rounded-lg border border-rule bg-card p-1.5 shadow-[0_16px_40px_-20px_rgba(15,42,36,0.45)]">
        {children}
      </div>
    </details>
  );
}
