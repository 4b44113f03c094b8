/**
 * Where every page notes the start of a visit, raw: the page's address and its referrer, the first
 * time in a tab (decision 034, amended). It runs first in <head>, before the loader, the app or any
 * press, so a visitor who moves on before a page's app has run (an address typed, a bookmark, the
 * history) still leaves the landing for the next page. The app reads it on any page and never
 * writes it (`landingAttribution` in src/features/waitlist/attribution.ts); the server writes the
 * script into every page and hashes it for the policy (server/pages/html.ts).
 */
import { LANDING_NOTE_KEY } from "#src/lib/hydration-protocol.ts";

/** Written small: every page carries it in its first round trip. */
export const LANDING_NOTE_SCRIPT = `try{sessionStorage["${LANDING_NOTE_KEY}"]||(sessionStorage["${LANDING_NOTE_KEY}"]=JSON.stringify([location.href,document.referrer]))}catch(e){}`;
