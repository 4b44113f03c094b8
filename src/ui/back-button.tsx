import type { MouseEvent } from "react";
import { Link, useNavigate } from "react-router";
import { NEEDS_APP } from "#src/lib/needs-app.ts";
import { Button } from "#src/ui/button.tsx";

/**
 * Whether the entry before this one in the tab's history is a page of this site. The Navigation
 * API lists only this origin's entries, so its index says it exactly; without it, React Router's
 * own index or a same-origin referrer says so.
 */
function hasPageOfOursBefore(): boolean {
  const navigation = (window as { navigation?: { currentEntry?: { index: number } | null } })
    .navigation;
  if (navigation?.currentEntry) return navigation.currentEntry.index > 0;
  const index = (window.history.state as { idx?: unknown } | null)?.idx;
  if (typeof index === "number" && index > 0) return true;
  try {
    return window.history.length > 1 && new URL(document.referrer).origin === location.origin;
  } catch {
    return false;
  }
}

/**
 * A link home that, once the page runs, goes one step back instead when that step is a page of
 * this site (decision 002). Without JavaScript, or opened from an email or another site, it is
 * the link it looks like.
 */
export function BackButton() {
  const navigate = useNavigate();
  function handleClick(event: MouseEvent<HTMLAnchorElement>) {
    const plain =
      event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
    if (!plain || !hasPageOfOursBefore()) return;
    event.preventDefault();
    void navigate(-1);
  }
  return (
    <Button asChild variant="ghost" size="sm" className="-ml-3">
      {/* Pressed before the app runs, it waits for it: only the app knows the step back. */}
      <Link to="/" onClick={handleClick} {...NEEDS_APP}>
        <svg
          viewBox="0 0 16 16"
          aria-hidden="true"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
        >
          <path d="M10 3L5 8l5 5" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        Back
      </Link>
    </Button>
  );
}
