/**
 * The built public files (build/client) through @fastify/static: one route per file found at
 * start-up (so nothing else on disk is reachable, and a path that is not a file falls through to
 * the pages), ETags and Last-Modified, byte ranges, and the build's precompressed .br and .gz
 * copies chosen by Accept-Encoding (q=0 honoured). Decision 019.
 */
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { IMMUTABLE, REVALIDATE_HOURLY } from "#server/pages/static-assets.ts";

export type StaticAssetsOptions = { clientDir: string };

export default async function staticAssets(
  app: FastifyInstance,
  { clientDir }: StaticAssetsOptions,
) {
  await app.register(fastifyStatic, {
    root: clientDir,
    prefix: "/",
    // Routes for the files that exist now, never a wildcard that reaches the disk per request.
    wildcard: false,
    index: false,
    serveDotFiles: false,
    // The compressed copies are served in place of their original, never by their own name.
    globIgnore: ["**/*.br", "**/*.gz"],
    preCompressed: true,
    decorateReply: false,
    etag: true,
    lastModified: true,
    acceptRanges: true,
    cacheControl: false,
    setHeaders: (reply, filePath) => {
      const hashed = path.relative(clientDir, filePath).startsWith(`assets${path.sep}`);
      reply.header("Cache-Control", hashed ? IMMUTABLE : REVALIDATE_HOURLY);
    },
  });
  // JavaScript is text/javascript (RFC 9239); the library's table still says application/.
  app.addHook("onSend", async (_req, reply, payload) => {
    const type = reply.getHeader("content-type");
    if (typeof type === "string" && type.startsWith("application/javascript"))
      reply.header("content-type", "text/javascript; charset=utf-8");
    return payload;
  });
}
