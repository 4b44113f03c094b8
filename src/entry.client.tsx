import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";

// A history entry the router has not seen yet gets its key here, before the router reads it: the
// page's scroll script only looks up entries that already have one (server/pages/html.ts).
if (!(window.history.state as { key?: unknown } | null)?.key) {
  window.history.replaceState(
    { ...(window.history.state as object | null), key: Math.random().toString(32).slice(2) },
    "",
  );
}

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter />
    </StrictMode>,
  );
});
