/**
 * The site as the bench's own servers run it (scripts/bench/mail-server.ts, broadcast-server.ts):
 * as `npm start` runs it (server/index.ts) but without a local inbox, stopped cleanly by SIGTERM.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { createApp } from "#server/app.ts";
import { parseEnv } from "#server/env.ts";
import { serverLoggers } from "#server/http/log-safety.ts";
import { openServices } from "#server/services.ts";

/** Starts the site from the production build and listens where its environment says. */
export async function startBenchSite() {
  const root = path.resolve(import.meta.dirname, "../..");
  const env = parseEnv(process.env);
  const build = (await import(
    pathToFileURL(path.join(root, "build/server/index.js")).href
  )) as ServerBuild;
  const { log, requestLines } = serverLoggers(env.logLevel);
  const services = await openServices(env, log);
  const app = await createApp({
    env,
    getBuild: () => Promise.resolve(build),
    clientDir: path.join(root, "build/client"),
    mode: "production",
    ...services,
    loggerInstance: log,
    requestLines,
  });
  await app.listen({ port: env.port, host: env.host });
  process.on("SIGTERM", () => {
    void app
      .close()
      .then(() => services.close())
      .then(() => process.exit(0));
  });
  return { services };
}
