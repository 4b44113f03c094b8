/**
 * A throwaway Dovecot IMAP server (Debian's dovecot-imapd) for the tests that read a real mailbox:
 * its own configuration, sockets, state and Maildir in a temporary folder, one user with a plain
 * password, no TLS, listening on loopback. Started by the test, in the foreground, and removed
 * after. Messages are put in with IMAP APPEND, as a delivery would leave them.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { connect } from "node:net";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { ImapFlow } from "imapflow";
import { closedPort } from "#tests/support/test-smtp.ts";

const DOVECOT = "/usr/sbin/dovecot";
const HOST = "127.0.0.1";
const OTHER_HOST = "127.0.0.2";
const USER = "bounces@tieout.test";
/** Characters that must be percent-encoded in a URL, to prove the reader decodes them. */
const PASSWORD = "p@ss/w%rd#1 ok";
const READY_TIMEOUT_MS = 15_000;

export type Dovecot = {
  /** imap://user:password@127.0.0.1:port/INBOX, user and password percent-encoded. */
  url: string;
  port: number;
  user: string;
  password: string;
  /** Puts a message in the INBOX with IMAP APPEND. */
  append: (raw: Buffer) => Promise<void>;
  /** How many messages the INBOX holds. */
  count: () => Promise<number>;
  /** What the server has logged so far (logins, logouts, errors). */
  log: () => string;
  /** Ends the server (its sessions drop) and removes its folder. */
  stop: () => Promise<void>;
};

// A test that times out never reaches its `afterAll`: its servers end with the worker at the
// latest (Dovecot's helpers leave when their master goes), and their folders with them.
const running = new Map<ChildProcess, string>();
process.on("exit", () => {
  for (const [child, dir] of running) {
    child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
});

function dovecotVersion(): string {
  if (!existsSync(DOVECOT))
    throw new Error(
      "Dovecot is not installed: scripts/ensure-test-tools.mjs installs Debian's dovecot-imapd",
    );
  const result = spawnSync(DOVECOT, ["--version"], { encoding: "utf8" });
  return result.stdout.trim();
}

/**
 * Who runs what. As root, Dovecot's own unprivileged users (created by the package) run its
 * helpers and the mailbox belongs to nobody, since Dovecot refuses to open mail as root; as anyone
 * else, everything runs as that user.
 */
function accounts(): { internal: string; login: string; uid: number; gid: number } {
  if (process.getuid?.() === 0)
    return { internal: "dovecot", login: "dovenull", uid: 65534, gid: 65534 };
  const me = userInfo();
  return { internal: me.username, login: me.username, uid: me.uid, gid: me.gid };
}

/** The configuration, in 2.3's syntax or 2.4's (which renamed most settings). */
function configuration(version: string, dir: string, port: number): string {
  const who = accounts();
  const common = [
    `base_dir = ${dir}/run`,
    `state_dir = ${dir}/state`,
    `instance_name = tieout-test-${port}`,
    "log_path = /dev/stderr",
    // 127.0.0.2 too: an address that is not "localhost" to the reader, to test what it asks of those.
    `listen = ${HOST}, ${OTHER_HOST}`,
    "ssl = no",
    "auth_mechanisms = plain login",
    // A wrong password is answered at once rather than after 2 s: the tests try one on purpose.
    "auth_failure_delay = 0",
    "first_valid_uid = 1",
    `default_internal_user = ${who.internal}`,
    `default_login_user = ${who.login}`,
    "service imap-login {",
    "  inet_listener imap {",
    `    port = ${port}`,
    "  }",
    "  inet_listener imaps {",
    "    port = 0",
    "  }",
    // No chroot: the login process would need the folder owned by root to chroot into it.
    "  chroot =",
    "}",
  ];
  const passwd = `${dir}/passwd`;
  if (/^2\.[0-3]\./.test(version))
    return [
      ...common,
      "protocols = imap",
      "disable_plaintext_auth = no",
      "mail_location = maildir:~/Maildir",
      "passdb {",
      "  driver = passwd-file",
      `  args = scheme=PLAIN username_format=%u ${passwd}`,
      "}",
      "userdb {",
      "  driver = passwd-file",
      `  args = username_format=%u ${passwd}`,
      "}",
      "",
    ].join("\n");
  // Written from 2.4's upgrade notes; Debian 12 has 2.3, so this branch has not run here.
  return [
    "dovecot_config_version = 2.4.0",
    "dovecot_storage_version = 2.4.0",
    ...common,
    "protocols = imap",
    "auth_allow_cleartext = yes",
    "mail_driver = maildir",
    "mail_path = ~/Maildir",
    "passdb passwd-file {",
    `  passwd_file_path = ${passwd}`,
    "}",
    "userdb passwd-file {",
    `  passwd_file_path = ${passwd}`,
    "}",
    "",
  ].join("\n");
}

/** Resolves once the server greets a client, as its sockets open a moment after it starts. */
async function waitForGreeting(port: number, exited: () => boolean): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline && !exited()) {
    const greeted = await new Promise<boolean>((resolve) => {
      const socket = connect(port, HOST);
      let text = "";
      socket.setTimeout(2_000, () => socket.destroy());
      socket.on("data", (chunk: Buffer) => {
        text += chunk.toString();
        // "* OK Waiting for authentication process" comes before the auth process is up.
        if (/^\* OK \[CAPABILITY/m.test(text)) {
          socket.destroy();
          resolve(true);
        }
      });
      socket.on("error", () => resolve(false));
      socket.on("close", () => resolve(false));
    });
    if (greeted) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Dovecot did not greet on port ${port} in time`);
}

async function withClient<T>(
  port: number,
  pass: string,
  work: (client: ImapFlow) => Promise<T>,
): Promise<T> {
  const client = new ImapFlow({
    host: HOST,
    port,
    secure: false,
    auth: { user: USER, pass },
    logger: false,
    disableAutoIdle: true,
  });
  client.on("error", () => {});
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.logout();
  }
}

/**
 * Starts a server on `port`, or on a free one. The password (no ":", the passwd-file's separator)
 * can be chosen for a test that must know it before the server is there.
 */
export async function startDovecot(
  options: { port?: number; password?: string } = {},
): Promise<Dovecot> {
  const version = dovecotVersion();
  const port = options.port ?? (await closedPort());
  const password = options.password ?? PASSWORD;
  if (password.includes(":")) throw new Error("A Dovecot passwd-file password cannot hold a colon");
  const dir = mkdtempSync(path.join(tmpdir(), "tieout-dovecot-"));
  // Dovecot's unprivileged processes must reach their sockets and the mailbox inside.
  chmodSync(dir, 0o755);
  const who = accounts();
  const home = path.join(dir, "home");
  mkdirSync(home);
  chownSync(home, who.uid, who.gid);
  writeFileSync(
    path.join(dir, "passwd"),
    `${USER}:{PLAIN}${password}:${who.uid}:${who.gid}::${home}\n`,
  );
  const conf = path.join(dir, "dovecot.conf");
  writeFileSync(conf, configuration(version, dir, port));

  const child = spawn(DOVECOT, ["-F", "-c", conf], { stdio: ["ignore", "ignore", "pipe"] });
  running.set(child, dir);
  let output = "";
  child.stderr.on("data", (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-200_000);
  });
  let exited = false;
  // once() rejects on an 'error' event (the binary could not be started): that is an exit too.
  const exit = once(child, "exit")
    .catch((error: Error) => {
      output += `\n${error.message}`;
    })
    .then(() => {
      exited = true;
      running.delete(child);
    });

  const stop = async () => {
    if (!exited) {
      child.kill("SIGTERM");
      const killed = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exit;
      clearTimeout(killed);
    }
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    await waitForGreeting(port, () => exited);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}. Its log:\n${output}`);
  }

  return {
    url: `imap://${encodeURIComponent(USER)}:${encodeURIComponent(password)}@${HOST}:${port}/INBOX`,
    port,
    user: USER,
    password,
    async append(raw) {
      await withClient(port, password, async (client) => {
        if (!(await client.append("INBOX", raw))) throw new Error("IMAP APPEND failed");
      });
    },
    async count() {
      return withClient(port, password, async (client) => {
        const status = await client.status("INBOX", { messages: true });
        if (!status) throw new Error("IMAP STATUS failed");
        return status.messages ?? 0;
      });
    },
    log: () => output,
    stop,
  };
}
