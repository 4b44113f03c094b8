/** GET /.well-known/security.txt: the vulnerability contact (RFC 9116), text/plain. */
import type { FastifyInstance } from "fastify";
import type { Env } from "#server/env.ts";
import { SECURITY_TXT_PATH, securityTxt } from "#server/http/security-txt.ts";

export default async function securityTxtPlugin(app: FastifyInstance, { env }: { env: Env }) {
  app.get(SECURITY_TXT_PATH, async (_req, reply) =>
    reply
      .type("text/plain; charset=utf-8")
      .header("Cache-Control", "public, max-age=3600")
      .send(securityTxt(env)),
  );
}
