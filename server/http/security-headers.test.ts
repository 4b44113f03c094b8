import { describe, expect, test } from "vitest";
import { parseEnv } from "#server/env.ts";
import { publicSite } from "#tests/support/deployed.ts";
import { baseSecurityHeaders, contentSecurityPolicy } from "#server/http/security-headers.ts";

const NONE = { scriptHashes: [], styleHashes: [], app: true };

describe("security headers", () => {
  test("scripts and styles: this origin and the page's own inline ones by hash, nothing else", () => {
    const csp = contentSecurityPolicy(parseEnv({}), {
      scriptHashes: ["'sha256-a'"],
      styleHashes: ["'sha256-b'"],
      app: true,
    });
    expect(csp).toContain("script-src 'self' 'sha256-a';");
    expect(csp).toContain("style-src 'self' 'sha256-b';");
    expect(csp).toContain("connect-src 'self' http://127.0.0.1:9099;");
    expect(csp).not.toContain("unsafe");
  });

  test("a page sent without the app may run only its own inline scripts and connect only home", () => {
    const csp = contentSecurityPolicy(parseEnv(publicSite()), {
      scriptHashes: ["'sha256-a'"],
      styleHashes: ["'sha256-b'"],
      app: false,
    });
    expect(csp).toContain("script-src 'sha256-a';");
    expect(csp).toContain("connect-src 'self';");
    expect(csp).toContain("style-src 'self' 'sha256-b';");
    const bare = contentSecurityPolicy(parseEnv({}), { ...NONE, app: false });
    expect(bare).toContain("script-src 'none';");
  });

  test("HSTS and upgrade-insecure-requests only when the public origin is HTTPS", () => {
    const http = parseEnv({});
    const https = parseEnv({ ...publicSite(), TRUST_PROXY: "10.0.0.0/8" });
    expect(baseSecurityHeaders(http)["Strict-Transport-Security"]).toBeUndefined();
    expect(baseSecurityHeaders(https)["Strict-Transport-Security"]).toBe(
      "max-age=63072000; includeSubDomains",
    );
    expect(contentSecurityPolicy(http, NONE)).not.toContain("upgrade-insecure-requests");
    expect(contentSecurityPolicy(https, NONE)).toContain("upgrade-insecure-requests");
  });

  test("frames come from this origin (the broadcast preview) and a configured demo player alone", () => {
    expect(contentSecurityPolicy(parseEnv({}), NONE)).toContain("frame-src 'self';");
    const vimeo = parseEnv({ DEMO_VIDEO_URL: "https://vimeo.com/76979871" });
    expect(contentSecurityPolicy(vimeo, NONE)).toContain(
      "frame-src 'self' https://player.vimeo.com;",
    );
  });
});
