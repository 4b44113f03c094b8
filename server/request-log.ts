import {
  LogController,
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
} from "fastify";

/**
 * One log line per request, when it completes, instead of Fastify's two. With `requestLines`
 * (server/log-safety.ts: the same destination and level as the app's logger, without redaction,
 * which nothing in this line could match) an ordinary line is written there, carrying the request
 * id as the request's own logger would, byte for byte; failures always go through the request's
 * logger, as their error is no fixed set of fields.
 */
export class OneLinePerRequest extends LogController {
  constructor(private readonly requestLines?: FastifyBaseLogger) {
    super();
  }
  override incomingRequest() {}
  override requestCompleted(error: Error | null, req: FastifyRequest, reply: FastifyReply) {
    // The path only: query strings can carry one-time codes (password reset links).
    const queryAt = req.url.indexOf("?");
    const line = {
      method: req.method,
      path: queryAt === -1 ? req.url : req.url.slice(0, queryAt),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      ip: req.ip,
      uid: req.sessionUid ?? undefined,
    };
    if (error || reply.statusCode >= 500)
      req.log.error({ ...line, err: error ?? undefined }, "request failed");
    else if (this.requestLines)
      this.requestLines.info({ [this.requestIdLogLabel]: req.id, ...line }, "request");
    else req.log.info(line, "request");
  }
}
