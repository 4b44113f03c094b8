/**
 * Where a page sent as a document (decision 034) notes the start of a visit, raw: the page's
 * address and its referrer, the first time in a tab. The app makes an attribution of it on a later
 * page (src/features/waitlist/attribution.ts); the server writes the script into the page
 * (server/html.ts).
 */
export const LANDING_NOTE_KEY = "tieout.landing";

/** The one script a document carries. Written small: it travels in the first round trip. */
export const LANDING_NOTE_SCRIPT = `try{sessionStorage["${LANDING_NOTE_KEY}"]||(sessionStorage["${LANDING_NOTE_KEY}"]=JSON.stringify([location.href,document.referrer]))}catch(e){}`;
