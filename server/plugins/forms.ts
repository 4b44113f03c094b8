/**
 * Which request bodies are read: JSON (Fastify's own parser) and HTML forms, URL-encoded or
 * multipart. Anything else is refused with 415 before a route sees it.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { parseForm, parseMultipartForm } from "#server/http/form-body.ts";

async function forms(app: FastifyInstance) {
  app.removeContentTypeParser("text/plain");
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string" },
    (_req, body, done) => {
      done(null, parseForm(body as string));
    },
  );
  app.addContentTypeParser(
    "multipart/form-data",
    { parseAs: "buffer" },
    (req: FastifyRequest, body: string | Buffer) =>
      parseMultipartForm(body as Buffer, req.headers["content-type"] ?? ""),
  );
}

export default fp(forms, { name: "forms" });
