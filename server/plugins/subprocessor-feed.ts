/** GET /subprocessors/feed.atom: the Atom feed of sub-processor changes, written once at start-up. */
import type { FastifyInstance } from "fastify";
import type { Env } from "#server/env.ts";
import { subprocessorFeed } from "#server/subprocessors/feed.ts";
import {
  SUBPROCESSOR_CHANGES,
  SUBPROCESSOR_FEED_PATH,
  SUBPROCESSORS,
} from "#src/content/subprocessors.ts";

export default async function subprocessorFeedPlugin(app: FastifyInstance, { env }: { env: Env }) {
  const feed = subprocessorFeed(env.siteUrl, SUBPROCESSORS, SUBPROCESSOR_CHANGES);
  app.get(SUBPROCESSOR_FEED_PATH, async (_req, reply) =>
    reply
      .type("application/atom+xml; charset=utf-8")
      .header("Cache-Control", "public, max-age=3600")
      .send(feed),
  );
}
