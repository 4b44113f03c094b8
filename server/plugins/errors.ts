/**
 * What a request that fails before or outside a page gets: a short answer in the caller's
 * language (JSON under /api/, plain text elsewhere), the security headers, and nothing echoed.
 * Under /api/ that includes a path or a method we do not serve.
 * Pages render their own errors (src/features/errors).
 */
import { STATUS_CODES } from "node:http";
import type {
  FastifyBaseLogger,
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyServerOptions,
} from "fastify";
import fp from "fastify-plugin";
import { loggedPath } from "#server/http/request-log.ts";

const CLIENT_ERROR_TEXT: Record<number, string> = {
  400: "Bad request.",
  408: "The request took too long to arrive.",
  431: "The request's headers are too large.",
};

/**
 * For requests too broken to parse (a malformed or oversized header, headers that never finish):
 * written straight to the socket, since Fastify has no reply for them, and one line in the log
 * (`request.malformed`, with the parser's reason and the connection's far end). A connection the
 * client already dropped gets neither.
 */
export function clientErrorHandler(
  headers: Readonly<Record<string, string>>,
  log: FastifyBaseLogger | undefined,
): NonNullable<FastifyServerOptions["clientErrorHandler"]> {
  return (error, socket) => {
    if (!socket.writable) return;
    const code = (error as { code?: string }).code;
    const status =
      code === "HPE_HEADER_OVERFLOW" ? 431 : code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400;
    log?.info(
      { event: "request.malformed", status, reason: code ?? "unknown", peer: socket.remoteAddress },
      "request refused: it could not be read",
    );
    const body = `${CLIENT_ERROR_TEXT[status] ?? "Bad request."}\n`;
    const head = Object.entries({
      ...headers,
      "Content-Type": "text/plain; charset=utf-8",
      "Content-Length": String(Buffer.byteLength(body)),
      "Cache-Control": "no-store",
      Connection: "close",
    })
      .map(([name, value]) => `${name}: ${value}`)
      .join("\r\n");
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n\r\n${body}`);
  };
}

/**
 * For a URL the router cannot read (bad percent-encoding and the like). Fastify answers these
 * outside its routes, where no request line is written: this writes it (`request.bad_url`), with
 * the request id the answer carries.
 */
export function frameworkErrors(
  headers: Readonly<Record<string, string>>,
): NonNullable<FastifyServerOptions["frameworkErrors"]> {
  return (error, req, reply) => {
    void (reply as FastifyReply)
      .headers(headers)
      .header("x-request-id", req.id)
      .status(400)
      .header("Cache-Control", "no-store")
      .type("text/plain; charset=utf-8")
      .send("Bad request.");
    req.log.info(
      {
        event: "request.bad_url",
        method: req.method,
        // Bounded: an unreadable URL is anyone's to make as long as the server allows.
        path: loggedPath(req.url),
        status: 400,
        reason: error.code,
        // The connection's far end: a proxy's address behind one (its forwarded headers are not
        // read for a request that cannot be routed).
        peer: req.raw.socket.remoteAddress,
      },
      "request refused: its URL could not be read",
    );
  };
}

function messageFor(status: number, error: FastifyError): string {
  if (status === 500) return "Something went wrong on our side.";
  if (status === 413) return "The request is too large.";
  if (status === 415) return "Send JSON or a form (application/x-www-form-urlencoded).";
  if (
    error.code === "FST_ERR_CTP_INVALID_JSON_BODY" ||
    error.code === "FST_ERR_CTP_EMPTY_JSON_BODY"
  )
    return "The body is not valid JSON.";
  return "The request could not be read.";
}

async function errors(app: FastifyInstance) {
  app.setNotFoundHandler(async (_req, reply) =>
    reply.status(404).type("text/plain; charset=utf-8").send("Not found"),
  );

  // Under /api/ a caller is a program: a path we do not serve is a JSON 404, and a path we serve
  // asked with another method a JSON 405 that names the methods it takes (never the site's HTML
  // not-found page). The endpoints are learnt as they are registered, after this plugin.
  const endpoints = new Map<string, Set<string>>();
  app.addHook("onRoute", (route) => {
    if (!route.url.startsWith("/api/") || route.url.includes("*")) return;
    const methods = endpoints.get(route.url) ?? new Set<string>();
    for (const method of [route.method].flat()) methods.add(method);
    endpoints.set(route.url, methods);
  });
  app.all("/api/*", async (req, reply) => {
    const queryAt = req.url.indexOf("?");
    const allowed = endpoints.get(queryAt === -1 ? req.url : req.url.slice(0, queryAt));
    reply.header("Cache-Control", "no-store");
    if (!allowed)
      return reply.status(404).send({ ok: false, message: "There is no such API endpoint." });
    return reply
      .status(405)
      .header("Allow", [...allowed].sort().join(", "))
      .send({ ok: false, message: `Use ${[...allowed].sort().join(" or ")} here.` });
  });
  app.setErrorHandler(async (error: FastifyError, req, reply) => {
    const status =
      error.statusCode && error.statusCode >= 400 && error.statusCode < 500
        ? error.statusCode
        : 500;
    if (status === 500) req.log.error({ err: error }, "request failed");
    const message = messageFor(status, error);
    if (req.url.startsWith("/api/")) return reply.status(status).send({ ok: false, message });
    return reply.status(status).type("text/plain; charset=utf-8").send(message);
  });
}

export default fp(errors, { name: "errors" });
