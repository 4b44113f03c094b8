import Fastify from "fastify";
import { pino } from "pino";
import { describe, expect, test } from "vitest";
import { LOG_OPTIONS } from "#server/http/log-safety.ts";
import { deferredChildLogger, OneLinePerRequest } from "#server/http/request-log.ts";

/**
 * A server logging as server/index.ts does (the request's logger with LOG_OPTIONS, and with
 * `fast` the redaction-free logger for ordinary request lines), into memory.
 */
async function logged(fast: boolean, url: string, uid: string | null = null, deferred = fast) {
  const lines: string[] = [];
  const destination = { write: (line: string) => void lines.push(line) };
  // A fixed clock, so that two runs can be compared byte for byte.
  const timestamp = () => ',"time":0';
  const log = pino({ ...LOG_OPTIONS, timestamp }, destination);
  const requestLines = pino({ timestamp }, destination);
  const app = Fastify({
    loggerInstance: log,
    logController: new OneLinePerRequest(fast ? requestLines : undefined),
    genReqId: () => "request-1",
    ...(deferred ? { childLoggerFactory: deferredChildLogger } : {}),
  });
  app.decorateRequest("sessionUid", null);
  app.addHook("onRequest", (req, _reply, done) => {
    req.sessionUid = uid;
    done();
  });
  app.get("/*", async (req, reply) => {
    if (req.url.startsWith("/fail")) throw new Error("broken");
    if (req.url.startsWith("/say")) {
      req.log.warn({ event: "test.said", password: "hunter22" }, "said");
      req.log.child({ part: "inner" }).info("from a child");
      req.log.debug("below the level");
    }
    return reply.type("text/plain").send("ok");
  });
  await app.inject({ url });
  await app.close();
  // The duration differs from run to run; everything else must not.
  return lines.map((line) => line.replace(/"ms":[\d.]+/, '"ms":0'));
}

describe("the line per request", () => {
  test("is the same line with or without the redaction-free logger", async () => {
    for (const [url, uid] of [
      ["/", null],
      ["/reset?oobCode=secret-code", null],
      ['/a"quote\\and\u00e9', "uid-1"],
    ] as const) {
      const lines = await logged(true, url, uid);
      expect(lines).toEqual(await logged(false, url, uid));
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({
        level: 30,
        reqId: "request-1",
        method: "GET",
        status: 200,
        ip: "127.0.0.1",
        msg: "request",
      });
      expect(lines[0]).not.toContain("secret-code");
    }
  });

  test("keeps at most 200 characters of a path, however long the client made it", async () => {
    const long = `/${"a".repeat(15_000)}`;
    const [line] = await logged(true, long);
    expect(JSON.parse(line!)).toMatchObject({ path: `${long.slice(0, 200)}…` });
  });

  test("a failure still goes through the request's logger, with its error", async () => {
    const lines = await logged(true, "/fail");
    expect(lines).toEqual(await logged(false, "/fail"));
    const failed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(failed.at(-1)).toMatchObject({ level: 50, status: 500, msg: "request failed" });
  });

  test("a request's own logger, made only when used, writes what Fastify's would", async () => {
    const lines = await logged(false, "/say", "uid-1", true);
    expect(lines).toEqual(await logged(false, "/say", "uid-1", false));
    const said = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(said[0]).toMatchObject({
      reqId: "request-1",
      event: "test.said",
      password: "[redacted]",
    });
    expect(said[1]).toMatchObject({ reqId: "request-1", part: "inner", msg: "from a child" });
    expect(said).toHaveLength(3);
  });
});
