/**
 * Start-up, top to bottom (decision 020). `npm start` (scripts/start.mjs) loads .env and builds
 * when needed, then runs build/server/app.js (server/production.ts), which makes NODE_ENV
 * production and loads this module, bundled by scripts/build.mjs into build/server/main.js.
 */
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { createApp } from "#server/app.ts";
import { startEmulatorFor } from "#server/identity/auth-emulator.ts";
import { EnvError, parseEnv } from "#server/env.ts";
import { serverLoggers } from "#server/http/log-safety.ts";
import { startLocalInboxFor } from "#server/mail/catcher.ts";
import { startMetricsServer } from "#server/operations/metrics-server.ts";
import { DatabaseStartError } from "#db/start-error.ts";
import { warmPaths } from "#server/pages/page-paths.ts";
import { openServices } from "#server/services.ts";
import { isDirectory } from "#server/pages/static-assets.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** A failure the operator can fix: its message alone (no stack trace), and exit 1. */
function exitWith(message: string): never {
  console.error(message);
  process.exit(1);
}

async function main() {
  // 1. Configuration: the environment, checked once; every bad variable is named.
  let env;
  try {
    env = parseEnv(process.env);
  } catch (error) {
    if (error instanceof EnvError) exitWith(error.message);
    throw error;
  }

  // 2. In emulator mode, the Firebase Auth emulator (unless one already answers at its address).
  const stopEmulator = await startEmulatorFor(env);

  // 3. Without SMTP_URL, the local inbox: a mail catcher on loopback that the outbox sends to.
  const inbox = await startLocalInboxFor(env);

  // 4. The build: the client files and React Router's server bundle.
  const clientDir = path.join(root, "build/client");
  if (!(await isDirectory(clientDir)))
    exitWith("No build found in build/client. Run `npm run build` (or `npm start`, which builds).");
  const build = (await import(
    pathToFileURL(path.join(root, "build/server/index.js")).href
  )) as ServerBuild;

  // 5. The database, migrated, and what runs on it (waitlist, outbox worker, sessions).
  const { log, requestLines } = serverLoggers(env.logLevel);
  // Starting and stopping are JSON lines like the rest, written at info whatever LOG_LEVEL says
  // (unless silent): a supervisor's log shows when the site came and went.
  const lifecycle = log.level === "silent" ? log : log.child({}, { level: "info" });
  let services;
  try {
    services = await openServices(env, log, { localRelay: inbox.localRelay });
  } catch (error) {
    if (error instanceof DatabaseStartError) exitWith(error.message);
    throw error;
  }

  // 6. The app.
  const app = await createApp({
    env,
    getBuild: () => Promise.resolve(build),
    clientDir,
    mode: "production",
    ...services,
    loggerInstance: log,
    requestLines,
  });

  // 7. Listen on METRICS_PORT when it is set, then on the site's port: whoever waits for the site
  // to answer (a supervisor, a health check, a test) finds the metrics answering too.
  const metricsListen = env.metrics.listen;
  const metricsServer = metricsListen
    ? await startMetricsServer(services.metrics, {
        ...metricsListen,
        token: env.metrics.token,
      }).catch((error: Error) =>
        exitWith(
          `METRICS_PORT: cannot listen on ${metricsListen.host}:${metricsListen.port} (${error.message})`,
        ),
      )
    : undefined;
  await app.listen({ port: env.port, host: env.host });
  lifecycle.info(
    { event: "server.listening", siteUrl: env.siteUrl, host: env.host, port: env.port },
    `Tieout is running at ${env.siteUrl} (listening on ${env.host}:${env.port})`,
  );
  if (metricsListen)
    lifecycle.info(
      { event: "metrics.listening", host: metricsListen.host, port: metricsListen.port },
      `Metrics at http://${metricsListen.host}:${metricsListen.port}/metrics`,
    );

  // 8. Render and compress every page of the build now, so no visitor waits for a cold cache (a
  // page that turns out not to be shareable, such as the reset link page, is simply not kept).
  const warmStart = performance.now();
  const pages = warmPaths(build.routes);
  // The not-found page is one page for every unknown path: rendered here from a fixed one.
  for (const url of [...pages, "/not-found"])
    await app.inject({ method: "GET", url, headers: { "accept-encoding": "br" } });
  log.info(
    { pages: pages.length, ms: Math.round(performance.now() - warmStart) },
    "page cache warmed",
  );

  // 9. Shutdown: finish open requests and the outbox's sends under way, close the database, stop
  // the inbox and the emulator started in steps 2 and 3.
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    lifecycle.info(
      { event: "server.stopping", signal },
      `${signal} received: finishing open requests, then stopping.`,
    );
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    app
      .close()
      .then(() => metricsServer?.close())
      .then(() => services.close())
      .then(() => inbox.stop())
      .then(() => stopEmulator())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

await main();
