import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { svgDataUrl } from "#src/lib/svg-data-url.ts";

describe("svgDataUrl", () => {
  it("decodes back to the same SVG", () => {
    const svg = readFileSync(path.join(import.meta.dirname, "../../public/favicon.svg"), "utf8");
    const url = svgDataUrl(svg);
    expect(url.startsWith("data:image/svg+xml,")).toBe(true);
    expect(decodeURIComponent(url.slice("data:image/svg+xml,".length))).toBe(svg.trim());
  });

  it("leaves nothing that would end the URL or the attribute early", () => {
    const url = svgDataUrl(`<svg a="1" b='2'>\n<g fill="#fff">100%</g>\t</svg>`);
    expect(url).not.toMatch(/[#"'<>\n\t]/);
    expect(decodeURIComponent(url.slice("data:image/svg+xml,".length))).toBe(
      `<svg a="1" b='2'>\n<g fill="#fff">100%</g>\t</svg>`,
    );
  });
});
