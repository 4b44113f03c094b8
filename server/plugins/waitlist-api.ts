/**
 * POST /api/waitlist: the JSON way in to the same submission the waitlist page's form makes. One
 * service call and one reply shape for both (src/features/waitlist/reply.ts, decision 014).
 */
import type { FastifyInstance } from "fastify";
import { clientKey } from "#server/http/rate-limit.ts";
import type { WaitlistService } from "#server/waitlist/service.ts";
import { waitlistReply } from "#src/features/waitlist/reply.ts";

export type WaitlistApiOptions = { waitlist: WaitlistService };

export default async function waitlistApi(app: FastifyInstance, { waitlist }: WaitlistApiOptions) {
  app.post("/api/waitlist", async (req, reply) => {
    const result = await waitlist.submit(req.body, {
      clientKey: clientKey(req),
      requestId: req.id,
    });
    const { status, headers, body } = waitlistReply(result);
    return reply.status(status).headers(headers).send(body);
  });
}
