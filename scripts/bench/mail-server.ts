/**
 * The site's server as the mail bench runs it (scripts/bench/mail.ts): the same app, services and
 * outbox worker as `npm start` (server/index.ts), with one difference: no local inbox is started.
 * With SMTP_URL the outbox delivers there; without it, mail waits in the outbox and none is sent,
 * which is the bench's "without mail" baseline.
 */
import { startBenchSite } from "./bench-site.ts";

await startBenchSite();
console.log("listening");
