import { describe, expect, test } from "vitest";
import { parseEnv } from "#server/env.ts";
import { baseSecurityHeaders, contentSecurityPolicy } from "#server/security-headers.ts";

describe("security headers", () => {
  test("HSTS and upgrade-insecure-requests only when the public origin is HTTPS", () => {
    const http = parseEnv({});
    const https = parseEnv({ SITE_URL: "https://tieout.ai" });
    expect(baseSecurityHeaders(http)["Strict-Transport-Security"]).toBeUndefined();
    expect(baseSecurityHeaders(https)["Strict-Transport-Security"]).toBe(
      "max-age=63072000; includeSubDomains",
    );
    expect(contentSecurityPolicy(http, "n")).not.toContain("upgrade-insecure-requests");
    expect(contentSecurityPolicy(https, "n")).toContain("upgrade-insecure-requests");
  });

  test("frames are refused unless a demo embed is configured, then only its player", () => {
    expect(contentSecurityPolicy(parseEnv({}), "n")).toContain("frame-src 'none'");
    const vimeo = parseEnv({ DEMO_VIDEO_URL: "https://vimeo.com/76979871" });
    expect(contentSecurityPolicy(vimeo, "n")).toContain("frame-src https://player.vimeo.com");
  });
});
