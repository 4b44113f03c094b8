/**
 * `npm run dev`: the same Fastify app, with Vite in middleware mode for hot reload. The server
 * build is loaded through Vite on every request, so edits show up without a restart.
 */
import middie from "@fastify/middie";
import type { ServerBuild } from "react-router";
import { createServer } from "vite";
import { createApp } from "#server/app.ts";
import { parseEnv } from "#server/env.ts";
import { pino } from "pino";
import { LOG_OPTIONS } from "#server/http/log-safety.ts";
import { openServices } from "#server/services.ts";
import { startEmulatorFor } from "#server/identity/auth-emulator.ts";
import { startLocalInboxFor } from "#server/mail/catcher.ts";

const env = parseEnv({ NODE_ENV: "development", ...process.env });
await startEmulatorFor(env);
const { localRelay } = await startLocalInboxFor(env);
const vite = await createServer({ server: { middlewareMode: true }, appType: "custom" });
const app = await createApp({
  env,
  getBuild: () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
  mode: "development",
  ...(await openServices(env, pino({ level: "info", ...LOG_OPTIONS }), { localRelay })),
});
await app.register(middie);
app.use(vite.middlewares);
await app.listen({ port: env.port, host: env.host });
console.log(`Tieout dev server at ${env.siteUrl}`);
