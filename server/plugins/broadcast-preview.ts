/**
 * GET /admin/broadcasts/:id/preview: a saved broadcast's HTML part as a recipient gets it, for the
 * composer's frame (decision 042). A mail styles itself inline, which the pages' policy forbids,
 * and a `srcdoc` frame would inherit that policy: so the mail is its own document here, with a
 * policy that allows inline styles and nothing else (no script, no form, no plugin), sandboxed,
 * and framed only by a page of this origin. Administrators only, asked before anything is read.
 */
import type { FastifyInstance } from "fastify";
import type { AdminGuard } from "#server/identity/admin-guard.ts";
import type { MailPort } from "#src/lib/mail-ports.ts";
import { UNAVAILABLE_MESSAGE } from "#src/features/waitlist/reply.ts";

export type BroadcastPreviewOptions = {
  mail: Pick<MailPort, "broadcasts">;
  requireAdmin: AdminGuard["requireAdmin"];
};

/** The mail's own document: its inline styles and images, nothing that runs or sends. */
const PREVIEW_POLICY = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "img-src https: data:",
  "form-action 'none'",
  "base-uri 'none'",
  "frame-ancestors 'self'",
  "sandbox",
].join("; ");

const ID = /^[1-9]\d{0,9}$/;

export default async function broadcastPreview(
  app: FastifyInstance,
  { mail, requireAdmin }: BroadcastPreviewOptions,
) {
  app.get<{ Params: { id: string } }>(
    "/admin/broadcasts/:id/preview",
    { preHandler: requireAdmin },
    async (req, reply) => {
      reply.header("Cache-Control", "private, no-store");
      const text = (status: number, message: string) =>
        reply.status(status).type("text/plain; charset=utf-8").send(message);
      if (!ID.test(req.params.id)) return text(404, "There is no broadcast with that number.");
      let broadcast;
      try {
        broadcast = await mail.broadcasts.get(Number(req.params.id));
      } catch {
        reply.header("Retry-After", "30");
        return text(503, UNAVAILABLE_MESSAGE);
      }
      if (!broadcast) return text(404, "There is no broadcast with that number.");
      const preview = mail.broadcasts.preview(broadcast);
      if (!preview.ok) return text(422, preview.message);
      return reply
        .header("Content-Security-Policy", PREVIEW_POLICY)
        .header("X-Frame-Options", "SAMEORIGIN")
        .type("text/html; charset=utf-8")
        .send(preview.html);
    },
  );
}
