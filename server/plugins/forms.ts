/**
 * Which request bodies are read: JSON (Fastify's own parser) and HTML forms. Anything else is
 * refused with 415 before a route sees it.
 */
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { parseForm } from "#server/form-body.ts";

async function forms(app: FastifyInstance) {
  app.removeContentTypeParser("text/plain");
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string" },
    (_req, body, done) => {
      done(null, parseForm(body as string));
    },
  );
}

export default fp(forms, { name: "forms" });
