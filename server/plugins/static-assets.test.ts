import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import Fastify from "fastify";
import { beforeAll, describe, expect, test } from "vitest";
import errors from "#server/plugins/errors.ts";
import staticAssets from "#server/plugins/static-assets.ts";

const SCRIPT = "console.log('tieout');\n".repeat(40);
const CLIP = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256));
let clientDir: string;

beforeAll(() => {
  clientDir = mkdtempSync(path.join(tmpdir(), "tieout-static-"));
  mkdirSync(path.join(clientDir, "assets"));
  mkdirSync(path.join(clientDir, "media"));
  writeFileSync(path.join(clientDir, "assets/app-1a2b.js"), SCRIPT);
  writeFileSync(path.join(clientDir, "assets/app-1a2b.js.br"), brotliCompressSync(SCRIPT));
  writeFileSync(path.join(clientDir, "assets/app-1a2b.js.gz"), gzipSync(SCRIPT));
  writeFileSync(path.join(clientDir, "media/clip.mp4"), CLIP);
  writeFileSync(path.join(clientDir, "favicon.svg"), "<svg/>");
  writeFileSync(path.join(clientDir, ".env"), "SESSION_SECRET=never-served");
});

async function app() {
  const server = Fastify();
  await server.register(errors);
  await server.register(staticAssets, { clientDir });
  return server;
}

describe("the static-assets plugin", () => {
  test("the precompressed copy the client accepts, Brotli first, and none it refuses with q=0", async () => {
    const server = await app();
    const url = "/assets/app-1a2b.js";
    const br = await server.inject({ url, headers: { "accept-encoding": "gzip, br" } });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.rawPayload).toEqual(brotliCompressSync(SCRIPT));
    expect(br.headers["vary"]).toMatch(/accept-encoding/i);

    const noBr = await server.inject({ url, headers: { "accept-encoding": "br;q=0, gzip" } });
    expect(noBr.headers["content-encoding"]).toBe("gzip");

    const plain = await server.inject({ url, headers: { "accept-encoding": "identity" } });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    expect(plain.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(br.headers["content-type"]).toBe("text/javascript; charset=utf-8");
  });

  test("hashed build files are immutable; the rest revalidate hourly", async () => {
    const server = await app();
    expect((await server.inject({ url: "/assets/app-1a2b.js" })).headers["cache-control"]).toBe(
      "public, max-age=31536000, immutable",
    );
    expect((await server.inject({ url: "/favicon.svg" })).headers["cache-control"]).toBe(
      "public, max-age=3600, must-revalidate",
    );
  });

  test("an ETag that a revalidation answers with 304", async () => {
    const server = await app();
    const first = await server.inject({ url: "/favicon.svg" });
    const etag = first.headers["etag"] as string;
    expect(etag).toBeTruthy();
    const again = await server.inject({ url: "/favicon.svg", headers: { "if-none-match": etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
  });

  test("byte ranges, as a video player asks for them, and 416 for one past the end", async () => {
    const server = await app();
    const part = await server.inject({ url: "/media/clip.mp4", headers: { range: "bytes=10-19" } });
    expect(part.statusCode).toBe(206);
    expect(part.headers["content-range"]).toBe("bytes 10-19/1000");
    expect(part.rawPayload).toEqual(CLIP.subarray(10, 20));

    const tail = await server.inject({ url: "/media/clip.mp4", headers: { range: "bytes=-5" } });
    expect(tail.rawPayload).toEqual(CLIP.subarray(995));

    const past = await server.inject({ url: "/media/clip.mp4", headers: { range: "bytes=5000-" } });
    expect(past.statusCode).toBe(416);
  });

  test("nothing but the build's own files: no dotfiles, no compressed copies by name, no traversal", async () => {
    const server = await app();
    for (const url of [
      "/.env",
      "/assets/app-1a2b.js.br",
      "/assets/app-1a2b.js.gz",
      "/assets/../.env",
      "/assets/%2e%2e/.env",
      "/assets/",
      "/media",
    ]) {
      const answer = await server.inject({ url });
      expect(answer.statusCode, url).toBe(404);
      expect(answer.body, url).not.toContain("never-served");
    }
  });
});
