/**
 * Reads the bounce mailbox over IMAP (BOUNCE_IMAP_URL), for deployments whose bounces land in a
 * hosted mailbox rather than at an MX of ours. Each message is handed over whole and deleted only
 * once the handler has resolved, so the mailbox is the queue: a handler that fails, a crash or a
 * dropped connection leaves the message for the next poll (at least once, never lost). It polls,
 * and IDLE (imapflow starts it by itself when the connection is quiet) only wakes it sooner.
 */
import type { FastifyBaseLogger } from "fastify";
import { ImapFlow } from "imapflow";

/** The first retry after a failure; doubled after each failure since, up to the ceiling. */
const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 5 * 60_000;
/** A server that is down must not hold stop() or a retry for imapflow's 90 s default. */
const CONNECT_TIMEOUT_MS = 30_000;
const LOGOUT_TIMEOUT_MS = 5_000;
const AUTO_IDLE_MS = 1_000;
const LOOPBACK = new Set(["localhost", "127.0.0.1", "::1"]);

type ImapTarget = {
  host: string;
  port: number;
  secure: boolean;
  user: string;
  pass: string;
  mailbox: string;
};

/**
 * `imap://user:password@host:port/MAILBOX` or `imaps://...`: 143 or 993 by default, INBOX when no
 * mailbox is named, user and password percent-decoded. The error never repeats the URL, which
 * holds a password.
 */
export function parseImapUrl(url: string): ImapTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error("BOUNCE_IMAP_URL is not a URL (imap://user:password@host:port/MAILBOX)");
  }
  if (parsed.protocol !== "imap:" && parsed.protocol !== "imaps:")
    throw new Error("BOUNCE_IMAP_URL must start with imap:// or imaps://");
  if (!parsed.hostname || !parsed.username)
    throw new Error("BOUNCE_IMAP_URL needs a user and a host (imap://user:password@host/MAILBOX)");
  const secure = parsed.protocol === "imaps:";
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: parsed.port ? Number(parsed.port) : secure ? 993 : 143,
    secure,
    user: decodeURIComponent(parsed.username),
    pass: decodeURIComponent(parsed.password),
    mailbox: decodeURIComponent(parsed.pathname.replace(/^\//, "")) || "INBOX",
  };
}

type ImapReader = {
  /** Resolves once the message in hand is handled and the connection is closed. */
  stop: () => Promise<void>;
};

export function startImapReader(options: {
  url: string;
  log: FastifyBaseLogger;
  handle: (source: Buffer) => Promise<void>;
  pollMs: number;
}): ImapReader {
  const { log, handle, pollMs } = options;
  const target = parseImapUrl(options.url);
  let stopping = false;
  /** Set by IDLE's news (or a dropped connection) so a wait that has not begun yet is skipped. */
  let news = false;
  let wake: (() => void) | undefined;
  let client: ImapFlow | undefined;
  /** Until logged in, stop() may cut the connection: a server that does not answer must not hold it. */
  let connecting = false;
  let failures = 0;

  const nudge = () => {
    news = true;
    wake?.();
  };

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, news || stopping ? 0 : ms);
      wake = done;
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
    });

  /** Hands over every message there is now, one at a time, deleting each one handled. */
  async function drain(imap: ImapFlow): Promise<void> {
    news = false;
    const uids = await imap.search({ all: true }, { uid: true });
    if (!uids) throw new Error(`IMAP SEARCH failed in ${target.mailbox}`);
    for (const uid of uids) {
      if (stopping) return;
      const message = await imap.fetchOne(String(uid), { source: true }, { uid: true });
      // Gone since the search (another reader took it): nothing to do.
      if (!message || !message.source) continue;
      try {
        await handle(message.source);
      } catch (error) {
        log.warn(
          { event: "bounces.imap_handle_error", uid, err: error },
          "A bounce from the mailbox could not be handled; it stays there for the next poll",
        );
        continue;
      }
      // \Deleted and EXPUNGE (UID EXPUNGE where the server has UIDPLUS, so nobody else's).
      if (!(await imap.messageDelete(String(uid), { uid: true })))
        throw new Error(`IMAP could not delete message ${uid} after handling it`);
    }
  }

  /** One connection, from login until it drops or stop() is called. */
  async function session(): Promise<void> {
    const imap = new ImapFlow({
      host: target.host,
      port: target.port,
      secure: target.secure,
      // imap:// upgrades with STARTTLS; beyond this machine it must, or a man in the middle could
      // strip the offer and read the password. On loopback, cleartext is allowed (tests, a local
      // Dovecot).
      doSTARTTLS: target.secure || LOOPBACK.has(target.host) ? undefined : true,
      auth: { user: target.user, pass: target.pass },
      // Its own log is chatty and at info; what matters is logged here, once.
      logger: false,
      connectionTimeout: CONNECT_TIMEOUT_MS,
      // IDLE soon after each poll (imapflow waits 15 s by default), so news comes at once.
      autoIdleDelay: AUTO_IDLE_MS,
    });
    client = imap;
    let failure: unknown;
    // Without a listener an 'error' event would be thrown and end the process.
    imap.on("error", (error) => {
      failure ??= error;
      nudge();
    });
    imap.on("exists", nudge);
    imap.on("close", nudge);
    try {
      connecting = true;
      try {
        await imap.connect();
        await imap.mailboxOpen(target.mailbox);
      } finally {
        connecting = false;
      }
      while (!stopping && imap.usable) {
        await drain(imap);
        // Counted from here, so a server that logs in but fails every poll still backs off.
        failures = 0;
        await wait(pollMs);
      }
      if (!stopping) throw failure ?? new Error("the IMAP connection closed");
    } finally {
      await closeQuietly(imap);
      client = undefined;
    }
  }

  async function run(): Promise<void> {
    while (!stopping) {
      try {
        await session();
      } catch (error) {
        if (stopping) break;
        failures += 1;
        const retryInMs = Math.min(FIRST_RETRY_MS * 2 ** (failures - 1), MAX_RETRY_MS);
        log.warn(
          {
            event: "bounces.imap_error",
            host: target.host,
            mailbox: target.mailbox,
            failures,
            retryInMs,
            err: error,
          },
          "The bounce mailbox could not be read; retrying",
        );
        news = false;
        await wait(retryInMs);
      }
    }
  }

  // run() catches what a session throws; this is for a bug in the loop itself, never a crash.
  const running = run().catch((error: unknown) =>
    log.error({ event: "bounces.imap_stopped", err: error }, "The bounce mailbox reader stopped"),
  );

  return {
    async stop() {
      stopping = true;
      wake?.();
      // Once logged in, the loop ends the poll (the message in hand is handled and deleted) and
      // logs out; IDLE ends with it.
      if (connecting) client?.close();
      await running;
    },
  };
}

async function closeQuietly(imap: ImapFlow): Promise<void> {
  if (imap.usable) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      imap.logout().catch(() => {}),
      new Promise((resolve) => (timer = setTimeout(resolve, LOGOUT_TIMEOUT_MS))),
    ]);
    clearTimeout(timer);
  }
  imap.close();
}
