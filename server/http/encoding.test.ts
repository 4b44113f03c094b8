import { describe, expect, test } from "vitest";
import { preferredEncoding } from "#server/http/encoding.ts";

describe("Accept-Encoding", () => {
  test("Brotli when the client takes it, gzip when it takes only that, nothing otherwise", () => {
    expect(preferredEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(preferredEncoding("gzip")).toBe("gzip");
    expect(preferredEncoding("identity")).toBeNull();
    expect(preferredEncoding("")).toBeNull();
    expect(preferredEncoding(undefined)).toBeNull();
  });

  test("q=0 means never, whatever else the header says", () => {
    expect(preferredEncoding("br;q=0, gzip")).toBe("gzip");
    expect(preferredEncoding("br;q=0.000, gzip;q=0.5")).toBe("gzip");
    expect(preferredEncoding("br;q=0, *")).toBe("gzip");
    expect(preferredEncoding("br;q=0, gzip;q=0")).toBeNull();
    expect(preferredEncoding("*;q=0")).toBeNull();
  });

  test("the client's order of preference by quality, and names in any case", () => {
    expect(preferredEncoding("br;q=0.2, gzip;q=0.9")).toBe("gzip");
    expect(preferredEncoding("GZIP, BR")).toBe("br");
    expect(preferredEncoding("*")).toBe("br");
  });

  test("the same answers when they are remembered, past the bound and for long headers", () => {
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 250; i++) {
        expect(preferredEncoding(`gzip;q=0.${i % 10}, br;q=0`)).toBe(i % 10 === 0 ? null : "gzip");
      }
      expect(preferredEncoding(`${"x-padding, ".repeat(30)}br`)).toBe("br");
      expect(preferredEncoding(`${"x-padding, ".repeat(30)}br;q=0`)).toBeNull();
      expect(preferredEncoding("gzip, deflate, br, zstd")).toBe("br");
    }
  });
});
