/**
 * The upload of a sheet to import (issue 37, part 5): the one form of the site that carries a file.
 * It has a plugin of its own so that nowhere else takes one: here alone, multipart bodies are read
 * whole (up to the import's limit and a little more, so a file just past it hears why from the
 * sheet reader), and the file is staged for its preview. An administrator's session is required, as
 * for every admin request; cross-site posts never get here (server/http/request-guards.ts).
 * Answered with a redirect, so the form works without JavaScript: to the preview, or back to the
 * upload page with the reason the file was refused.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AdminGuard } from "#server/identity/admin-guard.ts";
import type { Imports } from "#server/waitlist/import/imports.ts";
import { IMPORT_MAX_BYTES } from "#server/waitlist/import/sheet.ts";

/** The largest body read: the file's limit, and room for the form's own parts. */
const BODY_LIMIT = IMPORT_MAX_BYTES + 1024 * 1024;

export type AdminImportOptions = {
  imports: Imports;
  requireAdmin: AdminGuard["requireAdmin"];
};

/** Back to the upload page, which reads why by the refusal's id (never the words, which can quote a cell). */
const back = (reply: FastifyReply, refusalId: string) =>
  reply.redirect(`/admin/import?refused=${refusalId}`, 303);

export default async function adminImport(
  app: FastifyInstance,
  { imports, requireAdmin }: AdminImportOptions,
) {
  // Who the guard let in, for this plugin's requests (the admin plugin's are its own).
  app.decorateRequest("adminEmail", null);
  app.decorateRequest("adminSession", null);
  app.removeContentTypeParser("multipart/form-data");
  app.addContentTypeParser(
    "multipart/form-data",
    { parseAs: "buffer", bodyLimit: BODY_LIMIT },
    (_req: FastifyRequest, body: string | Buffer, done: (err: null, body: Buffer) => void) =>
      done(null, body as Buffer),
  );

  app.post(
    "/api/admin/import",
    { bodyLimit: BODY_LIMIT, preHandler: requireAdmin },
    async (req, reply) => {
      reply.header("Cache-Control", "no-store");
      const type = req.headers["content-type"] ?? "";
      if (!type.toLowerCase().startsWith("multipart/form-data"))
        return reply
          .status(415)
          .type("text/plain; charset=utf-8")
          .send("Upload the file with the import page's form (multipart/form-data).");
      const actor = { adminEmail: req.adminEmail ?? "unknown", clientAddress: req.ip };
      const refuse = async (name: string, message: string) =>
        back(reply, await imports.refuse(name, message, actor));
      let form: FormData;
      try {
        form = await new Response(new Uint8Array(req.body as Buffer), {
          headers: { "content-type": type },
        }).formData();
      } catch {
        return refuse(
          "upload.csv",
          "The upload could not be read. Choose the file again and upload it.",
        );
      }
      const files = form.getAll("file");
      const file = files[0];
      if (files.length !== 1 || typeof file === "string" || file === undefined || file.size === 0)
        return refuse(
          typeof file === "object" ? file.name : "upload.csv",
          "Choose one CSV file to upload.",
        );
      const staged = await imports.stage(
        { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) },
        actor,
      );
      if (!staged.ok) return back(reply, staged.id);
      req.log.info(
        { event: "import.staged", rows: staged.sheet.rows.length },
        "sheet staged for import",
      );
      return reply.redirect(`/admin/import/${staged.id}`, 303);
    },
  );
}
