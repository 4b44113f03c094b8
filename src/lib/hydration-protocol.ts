/**
 * The deferred-hydration protocol: the names shared by the page's inline loader
 * (`src/lib/hydration-loader.ts`), the server that finishes each page (`server/pages/html.ts`), the app
 * that the loader starts (`src/root.tsx`) and the tests. Decisions 009 and 018: nowhere else is
 * one of these written out.
 */

/** On <html>: the page's scripts wait for the visitor's first interaction. */
export const DEFER_ATTRIBUTE = "data-hydrate";
export const DEFER_VALUE = "interaction";
/**
 * DEFER_ATTRIBUTE's value on a page that is a document for this visitor (decision 034): the
 * server sends it without the app, so nothing on it waits for JavaScript.
 */
export const DOCUMENT_VALUE = "never";
/** On <html>, set by the root route once React has hydrated the page. */
export const HYDRATED_ATTRIBUTE = "data-hydrated";
/** Dispatched on window right after HYDRATED_ATTRIBUTE is set; held presses are replayed then. */
export const HYDRATED_EVENT = "tieout:hydrated";
/**
 * On <html> in production: the app's stylesheet, named rather than linked so the browser fetches
 * nothing before the first paint; the server inlines the rules the page uses (decision 009).
 */
export const STYLESHEET_ATTRIBUTE = "data-stylesheet";
/** The id of the inert copy of React Router's module script on a deferred page. */
export const DEFERRED_APP_ID = "tieout-app";
/**
 * On a link, a form or a submit button that works only with the app, though the browser could
 * follow or send it (decision 040): pressed before the app is ready, it is held for the app
 * instead of being left to the browser.
 */
export const NEEDS_APP_ATTRIBUTE = "data-needs-app";
/**
 * A hidden field of a form the browser may send before the app is ready: the loader fills it with
 * the landing note (src/lib/landing-note.ts), so the server attributes the submission as the app
 * would have.
 */
export const LANDING_FIELD = "landing";
/** Where the landing note (src/lib/landing-note.ts) keeps the start of a visit, in sessionStorage. */
export const LANDING_NOTE_KEY = "tieout.landing";
/**
 * How long a held press waits for React. Past it, the press gets the browser's own default
 * action (a link is followed, a form is posted), so nothing is lost when scripts never arrive.
 */
export const NATIVE_FALLBACK_MS = 8_000;
