/**
 * Production entry: validate the configuration, load the build, listen, and shut down cleanly.
 * Bundled by scripts/build.mjs into build/server/main.js, which build/server/app.js (from
 * server/production.ts) loads after making NODE_ENV production; `npm start` runs app.js.
 */
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { pino } from "pino";
import type { ServerBuild } from "react-router";
import { createApp } from "#server/app.ts";
import { EnvError, parseEnv } from "#server/env.ts";
import { LOG_OPTIONS } from "#server/log-safety.ts";
import { DatabaseStartError } from "#db/client.ts";
import { warmPaths } from "#server/page-paths.ts";
import { openServices } from "#server/services.ts";
import { isDirectory } from "#server/static-assets.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

async function main() {
  let env;
  try {
    env = parseEnv(process.env);
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const clientDir = path.join(root, "build/client");
  if (!(await isDirectory(clientDir))) {
    console.error(
      "No build found in build/client. Run `npm run build` (or `npm start`, which builds).",
    );
    process.exit(1);
  }
  const build = (await import(
    pathToFileURL(path.join(root, "build/server/index.js")).href
  )) as ServerBuild;
  const log = pino({ level: env.logLevel, ...LOG_OPTIONS });
  let services;
  try {
    services = await openServices(env, log);
  } catch (error) {
    if (error instanceof DatabaseStartError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const app = await createApp({
    env,
    getBuild: () => Promise.resolve(build),
    clientDir,
    mode: "production",
    ...services,
    loggerInstance: log,
  });

  await app.listen({ port: env.port, host: env.host });
  console.log(`Tieout is running at ${env.siteUrl} (listening on ${env.host}:${env.port})`);

  // Render and compress every page of the build now, so no visitor waits for a cold cache (a page
  // that turns out not to be shareable, such as the reset link page, is simply not kept).
  const warmStart = performance.now();
  const pages = warmPaths(build.routes);
  // The not-found page is one page for every unknown path: rendered here from a fixed one.
  for (const url of [...pages, "/not-found"])
    await app.inject({ method: "GET", url, headers: { "accept-encoding": "br" } });
  log.info(
    { pages: pages.length, ms: Math.round(performance.now() - warmStart) },
    "page cache warmed",
  );

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`${signal} received: finishing open requests, then stopping.`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    app
      .close()
      .then(() => services.close())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

await main();
