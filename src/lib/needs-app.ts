import { NEEDS_APP_ATTRIBUTE } from "#src/lib/hydration-protocol.ts";

/**
 * NEEDS_APP_ATTRIBUTE as props to spread on a link or form that works only with the app (decision
 * 040). Kept apart from the protocol, which the page's loader is built from and which holds names
 * alone.
 */
export const NEEDS_APP = { [NEEDS_APP_ATTRIBUTE]: "" };
