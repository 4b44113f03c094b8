import type { Env } from "#server/env.ts";

/**
 * The inline scripts and styles of one page, by hash, and whether it carries the app (server/pages/html.ts
 * finds both).
 */
export type InlineHashes = {
  scriptHashes: readonly string[];
  styleHashes: readonly string[];
  app: boolean;
};

/** Headers every response carries, whatever its type. */
export function baseSecurityHeaders(env: Env): Record<string, string> {
  const headers: Record<string, string> = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
  };
  if (env.siteUrl.startsWith("https://")) {
    headers["Strict-Transport-Security"] = "max-age=63072000; includeSubDomains";
  }
  return headers;
}

/** For every response that is not an HTML page: load nothing, be framed by no one. */
const NON_DOCUMENT_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * The headers every response starts with. Anything that is not a page (JSON, CSV, text, files) may
 * load and frame nothing; pages replace the policy with their own. Development's Vite pages need
 * their inline scripts, so there is no policy there.
 */
export function responseHeaders(env: Env, mode: "production" | "development") {
  return {
    ...baseSecurityHeaders(env),
    ...(mode === "production" ? { "Content-Security-Policy": NON_DOCUMENT_CSP } : {}),
  };
}

/**
 * The policy for HTML documents: scripts and styles from this origin, plus exactly the inline ones
 * this page carries, by hash. No 'unsafe-inline', no eval, no plugins, no framing, forms post home.
 * Fonts, media, the web app manifest and workers fall back to `default-src 'self'`. A page sent
 * without the app (decision 034) may run only its inline scripts and connect only to this origin.
 */
export function contentSecurityPolicy(env: Env, inline: InlineHashes): string {
  // This origin for the broadcast composer's preview, whose own policy lets only pages of ours frame
  // it (server/plugins/broadcast-preview.ts); every other response here refuses any frame. On every
  // page, since the app moves between pages without asking for a new policy.
  const frames = ["'self'", ...(env.demoEmbed ? [env.demoEmbed.origin] : [])];
  // The app talks to Firebase Authentication directly (or to the local emulator).
  const identity =
    env.firebase.mode === "emulator"
      ? [`http://${env.firebase.emulatorHost}`]
      : ["https://identitytoolkit.googleapis.com", "https://securetoken.googleapis.com"];
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": inline.app ? ["'self'", ...inline.scriptHashes] : orNone(inline.scriptHashes),
    "style-src": ["'self'", ...inline.styleHashes],
    "img-src": ["'self'", "data:"],
    // Without the app nothing of the page connects, but tools a visitor runs in the page (an
    // audit reading /robots.txt) still ask this origin.
    "connect-src": inline.app ? ["'self'", ...identity] : ["'self'"],
    "frame-src": orNone(frames),
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
  };
  const policy = Object.entries(directives).map(([k, v]) => `${k} ${v.join(" ")}`);
  if (env.siteUrl.startsWith("https://")) policy.push("upgrade-insecure-requests");
  return policy.join("; ");
}

const orNone = (sources: readonly string[]) => (sources.length > 0 ? [...sources] : ["'none'"]);

export function htmlSecurityHeaders(env: Env, inline: InlineHashes): Record<string, string> {
  return {
    "Content-Security-Policy": contentSecurityPolicy(env, inline),
    "Cross-Origin-Opener-Policy": "same-origin",
  };
}
