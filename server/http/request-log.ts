import {
  LogController,
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
} from "fastify";
import type { Bindings, ChildLoggerOptions } from "pino";

/** The most of a path a log line keeps: a client may send 16 KB of it, and lines stay short. */
const MAX_LOGGED_PATH = 200;

/** A request target as a log line holds it: the path only, since a query string can carry a
 * one-time code (a password reset link), and no longer than MAX_LOGGED_PATH. */
export function loggedPath(url: string): string {
  const queryAt = url.indexOf("?");
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  return path.length > MAX_LOGGED_PATH ? `${path.slice(0, MAX_LOGGED_PATH)}…` : path;
}

/**
 * One log line per request, when it completes, instead of Fastify's two. With `requestLines`
 * (server/http/log-safety.ts: the same destination and level as the app's logger, without redaction,
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
    const line = {
      method: req.method,
      path: loggedPath(req.url),
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

/**
 * Fastify's logger for one request (`req.log`, with its request id), made when the request first
 * has something to say. Fastify makes it for every request, and most never use it: their one line
 * goes through `requestLines`. The logger made is the one Fastify would have made (same parent,
 * bindings and options), so every line it writes is the same.
 */
class DeferredChildLogger implements FastifyBaseLogger {
  #made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get #logger(): FastifyBaseLogger {
    return (this.#made ??= this.parent.child(this.bindings, this.options));
  }

  get level() {
    return this.#logger.level;
  }
  set level(level: string) {
    this.#logger.level = level;
  }
  fatal(...args: unknown[]) {
    Reflect.apply(this.#logger.fatal, this.#logger, args);
  }
  error(...args: unknown[]) {
    Reflect.apply(this.#logger.error, this.#logger, args);
  }
  warn(...args: unknown[]) {
    Reflect.apply(this.#logger.warn, this.#logger, args);
  }
  info(...args: unknown[]) {
    Reflect.apply(this.#logger.info, this.#logger, args);
  }
  debug(...args: unknown[]) {
    Reflect.apply(this.#logger.debug, this.#logger, args);
  }
  trace(...args: unknown[]) {
    Reflect.apply(this.#logger.trace, this.#logger, args);
  }
  silent(...args: unknown[]) {
    Reflect.apply(this.#logger.silent, this.#logger, args);
  }
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#logger.child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: each request's logger is made only if it is used. */
export function deferredChildLogger(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new DeferredChildLogger(parent, bindings, options);
}
