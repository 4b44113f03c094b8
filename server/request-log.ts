import { LogController, type FastifyReply, type FastifyRequest } from "fastify";

/** One log line per request, when it completes, instead of Fastify's two. */
export class OneLinePerRequest extends LogController {
  override incomingRequest() {}
  override requestCompleted(error: Error | null, req: FastifyRequest, reply: FastifyReply) {
    // The path only: query strings can carry one-time codes (password reset links).
    const line = {
      method: req.method,
      path: req.url.split("?")[0],
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      ip: req.ip,
      uid: req.sessionUid ?? undefined,
    };
    if (error || reply.statusCode >= 500)
      req.log.error({ ...line, err: error ?? undefined }, "request failed");
    else req.log.info(line, "request");
  }
}
