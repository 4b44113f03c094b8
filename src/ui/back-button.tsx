import { useNavigate } from "react-router";
import { Button } from "#src/ui/button.tsx";

/** Goes one step back in history; in a tab with no history (opened from an email), goes home. */
export function BackButton() {
  const navigate = useNavigate();
  function handleClick() {
    if (window.history.length > 1) void navigate(-1);
    else void navigate("/");
  }
  return (
    <Button type="button" variant="ghost" size="sm" onClick={handleClick} className="-ml-3">
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
    </Button>
  );
}
