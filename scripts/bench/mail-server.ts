/**
 * The site's server as the mail bench runs it (scripts/bench/mail.ts): the same app, services and
 * outbox worker as `npm start` (server/index.ts), with one difference: no local inbox is started.
 * With SMTP_URL the outbox delivers there; without it, mail waits in the outbox and none is sent,
 * which is the bench's "without mail" baseline.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { createApp } from "#server/app.ts";
import { parseEnv } from "#server/env.ts";
import { serverLoggers } from "#server/http/log-safety.ts";
import { openServices } from "#server/services.ts";

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
console.log("listening");
process.on("SIGTERM", () => {
  void app
    .close()
    .then(() => services.close())
    .then(() => process.exit(0));
});
