/**
 * The one place that reads the environment, through one zod schema (decision 020): each variable
 * is checked and turned into its type, then the rules that join several variables run, then the
 * result takes the shape the server uses. `Env` is inferred from that schema. A bad value stops
 * the server with a message naming the variable; every problem is reported at once. Empty strings
 * count as unset.
 */
import { createPrivateKey } from "node:crypto";
import { readFileSync } from "node:fs";
import { isIP } from "node:net";
import { z } from "zod";
import { SITE } from "#src/content/site.ts";
import { parseDemoEmbed } from "#src/lib/demo-embed.ts";

/** A variable set to "" or to spaces is unset. */
const variable = <S extends z.ZodType>(schema: S) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), schema);

const wholeNumber = (message: string) => z.string().regex(/^\d+$/, message).transform(Number);

/** A comma-separated list, each item trimmed, empty items dropped. */
const list = (normalise: (item: string) => string = (item) => item) =>
  z.string().transform((v) =>
    v
      .split(",")
      .map((item) => normalise(item.trim()))
      .filter(Boolean),
  );

/**
 * Secrets, newest first, separated by commas (so one can replace another while the old one still
 * works): each at least 32 characters, else `message`.
 */
const secretList = (message: string) =>
  z
    .string()
    .transform((v) => v.split(",").map((secret) => secret.trim()))
    .refine((secrets) => secrets.every((secret) => secret.length >= 32), message)
    .optional();

const EMAIL = z.email();

const anyPort = () =>
  z
    .string()
    .regex(/^\d{1,5}$/, "a port number from 1 to 65535")
    .transform(Number)
    .refine((port) => port >= 1 && port <= 65535, "a port number from 1 to 65535");
const port = (fallback: number) => anyPort().default(fallback);

/** A mail relay: smtp:// (STARTTLS when offered) or smtps:// (TLS from the first byte). */
export type SmtpRelay = {
  host: string;
  port: number;
  secure: boolean;
  auth: { user: string; pass: string } | undefined;
  /** For messages and logs: the URL without its password. */
  display: string;
};

function parseSmtpUrl(value: string): SmtpRelay | string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return "an smtp:// or smtps:// URL, for example smtp://user:password@smtp.example.com:587";
  }
  if (u.protocol !== "smtp:" && u.protocol !== "smtps:")
    return `scheme smtp:// or smtps://, not ${u.protocol}//`;
  if (!u.hostname) return "a host, for example smtp://smtp.example.com:587";
  if ((u.pathname && u.pathname !== "/") || u.search || u.hash)
    return "host, optional port and optional user:password only (no path or query; a @, #, / or ? in the user or password is written %40, %23, %2F or %3F)";
  if (u.password && !u.username) return "a user name before the password (user:password@host)";
  const secure = u.protocol === "smtps:";
  let auth: SmtpRelay["auth"];
  try {
    auth = u.username
      ? { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) }
      : undefined;
  } catch {
    return "user and password percent-encoded (a % must be followed by two hex digits)";
  }
  const at = `${u.hostname}${u.port ? `:${u.port}` : ""}`;
  return {
    host: u.hostname.replace(/^\[|\]$/g, ""),
    port: u.port ? Number(u.port) : secure ? 465 : 587,
    secure,
    auth,
    display: `${u.protocol}//${auth ? `${u.username}:***@` : ""}${at}`,
  };
}

/** A sender: `address` or `Display Name <address>`, on one line. */
export type Mailbox = { name: string | undefined; address: string };

function parseMailbox(value: string): Mailbox | string {
  if (/[\r\n]/.test(value)) return "one line (no line breaks)";
  const named = /^\s*(?:"([^"]*)"|([^<>"]*?))\s*<([^<>\s]+)>\s*$/.exec(value);
  const name = named ? (named[1] ?? named[2])?.trim() || undefined : undefined;
  const address = named ? named[3]! : value.trim();
  if (!EMAIL.safeParse(address).success)
    return "an email address, optionally with a name: Tieout <hello@tieout.ai>";
  return { name, address };
}

const PROXY_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

function isProxyAddress(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address = "", prefix, extra] = entry.split("/");
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

function isOrigin(value: string): boolean {
  try {
    const u = new URL(value);
    return (
      (u.protocol === "http:" || u.protocol === "https:") &&
      u.pathname === "/" &&
      !u.search &&
      !u.hash &&
      !u.username
    );
  } catch {
    return false;
  }
}

function isHttpUrl(value: string): boolean {
  try {
    return /^https?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** host:port on the loopback interface: 127.x.x.x, localhost or [::1]. */
function isLoopbackHostPort(hostPort: string): boolean {
  return /^(?:127(?:\.\d{1,3}){3}|localhost|\[::1\]):\d{1,5}$/.test(hostPort);
}

function isLocalOrigin(origin: string): boolean {
  const { hostname } = new URL(origin);
  return hostname === "localhost" || hostname === "[::1]" || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

/** A Firebase service account's key, as the console's "Generate new private key" writes it. */
type ServiceAccount = { path: string; projectId: string; clientEmail: string };

/** The key file at `path`, checked here so that a bad one stops start-up, not the first sign-in. */
function readServiceAccount(path: string): ServiceAccount | string {
  const wanted = `a readable service-account key file (JSON) of the Firebase project, not ${path}`;
  let key: Record<string, unknown>;
  try {
    key = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  } catch {
    return wanted;
  }
  const { type, project_id, client_email, private_key } = key;
  if (
    type !== "service_account" ||
    typeof project_id !== "string" ||
    typeof client_email !== "string" ||
    typeof private_key !== "string"
  )
    return `${wanted}: its type must be service_account, with project_id, client_email and private_key`;
  try {
    createPrivateKey(private_key);
  } catch {
    return `${wanted}: its private_key is not a private key`;
  }
  return { path, projectId: project_id, clientEmail: client_email };
}

/** Each variable on its own: its check, its type, its default. In the README table's order. */
const VariablesSchema = z.object({
  NODE_ENV: variable(z.enum(["production", "development", "test"]).default("production")),
  PORT: variable(port(3000)),
  HOST: variable(
    z
      .string()
      .trim()
      .refine(
        (host) => isIP(host) !== 0 || /^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$/.test(host),
        "an address or name to listen on, such as 0.0.0.0, 127.0.0.1, :: or localhost",
      )
      .default("0.0.0.0"),
  ),
  SITE_URL: variable(
    z
      .string()
      .transform((v) => v.replace(/\/+$/, ""))
      .refine(isOrigin, "an origin such as https://tieout.ai (http or https, no path)")
      .optional(),
  ),
  TRUST_PROXY: variable(
    list()
      .superRefine((entries, ctx) => {
        for (const entry of entries.filter((e) => !isProxyAddress(e)))
          ctx.addIssue(
            `"${entry}" is not an IP address, a CIDR range (10.0.0.0/8) or one of loopback, linklocal, uniquelocal`,
          );
      })
      .default([]),
  ),
  LOG_LEVEL: variable(z.enum(["debug", "info", "warn", "error", "silent"]).default("info")),
  DATA_DIR: variable(z.string().default("./data")),
  DATABASE_URL: variable(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "a postgres:// or postgresql:// connection URL")
      .optional(),
  ),
  FIREBASE_API_KEY: variable(z.string().optional()),
  FIREBASE_AUTH_DOMAIN: variable(z.string().optional()),
  FIREBASE_PROJECT_ID: variable(z.string().optional()),
  FIREBASE_APP_ID: variable(z.string().optional()),
  FIREBASE_AUTH_EMULATOR_HOST: variable(
    z
      .string()
      .regex(/^[A-Za-z0-9.-]+:\d{1,5}$/, "host:port, for example 127.0.0.1:9099")
      .optional(),
  ),
  GOOGLE_APPLICATION_CREDENTIALS: variable(
    z
      .string()
      .transform((path, ctx) => {
        const account = readServiceAccount(path);
        if (typeof account === "string") {
          ctx.addIssue(account);
          return z.NEVER;
        }
        return account;
      })
      .optional(),
  ),
  SESSION_SECRET: variable(
    secretList(
      "each secret at least 32 characters (for example: openssl rand -base64 48); to rotate, list the new one first, a comma, then the old one",
    ),
  ),
  ERASURE_KEY: variable(
    secretList(
      "each key at least 32 characters (for example: openssl rand -base64 48); to change it, list the new one first, a comma, then the old one, and keep the old one as long as the logs it keyed",
    ),
  ),
  ADMIN_EMAILS: variable(
    list((email) => email.toLowerCase())
      .superRefine((emails, ctx) => {
        for (const email of emails.filter((e) => !EMAIL.safeParse(e).success))
          ctx.addIssue(`"${email}" is not an email`);
      })
      .default([]),
  ),
  WAITLIST_RATE_LIMIT: variable(wholeNumber("a whole number (0 turns it off)").default(10)),
  SESSION_RATE_LIMIT: variable(wholeNumber("a whole number (0 turns it off)").default(20)),
  SESSION_RECHECK_SECONDS: variable(
    wholeNumber("a whole number of seconds")
      .refine((seconds) => seconds <= 3600, "at most 3600 (an hour)")
      .default(300),
  ),
  WAITLIST_FORWARD_URL: variable(
    z
      .string()
      .refine(isHttpUrl, "an http(s) URL, set together with WAITLIST_FORWARD_FIELDS")
      .optional(),
  ),
  WAITLIST_FORWARD_FIELDS: variable(
    z
      .string()
      .transform((v, ctx) => {
        const [name, email, company, message, ...more] = v.split(",").map((f) => f.trim());
        if (name && email && company && message && more.length === 0)
          return [name, email, company, message] as const;
        ctx.addIssue("four comma-separated field names for name, email, company and message");
        return z.NEVER;
      })
      .optional(),
  ),
  DEMO_VIDEO_URL: variable(
    z
      .string()
      .transform((v, ctx) => {
        const embed = parseDemoEmbed(v);
        if (embed) return embed;
        ctx.addIssue("an https link to a YouTube, Vimeo or Loom video");
        return z.NEVER;
      })
      .optional(),
  ),
  SMTP_URL: variable(
    z
      .string()
      .transform((v, ctx) => {
        const relay = parseSmtpUrl(v.trim());
        if (typeof relay !== "string") return relay;
        ctx.addIssue(relay);
        return z.NEVER;
      })
      .optional(),
  ),
  MAIL_FROM: variable(
    z
      .string()
      .transform((v, ctx) => {
        const mailbox = parseMailbox(v);
        if (typeof mailbox !== "string") return mailbox;
        ctx.addIssue(mailbox);
        return z.NEVER;
      })
      .default({ name: SITE.name, address: SITE.contactEmail }),
  ),
  DKIM_DOMAIN: variable(
    z
      .string()
      .regex(
        /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i,
        "a domain name such as tieout.ai",
      )
      .optional(),
  ),
  DKIM_SELECTOR: variable(
    z
      .string()
      .regex(/^[a-z0-9]([a-z0-9._-]*[a-z0-9])?$/i, "a DNS label such as mail2025")
      .optional(),
  ),
  DKIM_PRIVATE_KEY: variable(
    z
      .string()
      // A key pasted on one line with \n escapes is the same key.
      .transform((v) => v.replace(/\\n/g, "\n").trim())
      .refine((pem) => {
        if (
          !/^-----BEGIN (RSA |EC )?PRIVATE KEY-----\n[\s\S]+\n-----END (RSA |EC )?PRIVATE KEY-----$/.test(
            pem,
          )
        )
          return false;
        try {
          createPrivateKey(pem);
          return true;
        } catch {
          return false;
        }
      }, "a PEM private key (-----BEGIN PRIVATE KEY----- ... -----END PRIVATE KEY-----)")
      .optional(),
  ),
  SLACK_WEBHOOK_URL: variable(
    z
      .string()
      .refine((v) => {
        try {
          const u = new URL(v);
          return u.protocol === "https:" && !u.username && !u.password;
        } catch {
          return false;
        }
      }, "an https URL, such as the one Slack gives for an incoming webhook")
      .optional(),
  ),
  SIGNUP_MODE: variable(
    z
      .enum(["open", "invite"], "open (anyone may sign up) or invite (only invited addresses)")
      .default("open"),
  ),
  INVITE_TTL_DAYS: variable(
    wholeNumber("a whole number of days from 1 to 365")
      .refine((days) => days >= 1 && days <= 365, "a whole number of days from 1 to 365")
      .default(14),
  ),
  BROADCAST_RATE_PER_MINUTE: variable(
    wholeNumber("a whole number of mails a minute from 1 to 60000")
      .refine((n) => n >= 1 && n <= 60_000, "a whole number of mails a minute from 1 to 60000")
      .default(300),
  ),
  BOUNCE_ADDRESS: variable(
    z
      .string()
      .regex(
        /^[A-Za-z0-9!#$%&'*/=?^_`{|}~.-]+@[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/,
        "a plain address without a plus, such as bounces@example.com",
      )
      .optional(),
  ),
  BOUNCE_IMAP_URL: variable(
    z
      .string()
      .refine((value) => {
        try {
          const url = new URL(value);
          return (url.protocol === "imap:" || url.protocol === "imaps:") && url.username !== "";
        } catch {
          return false;
        }
      }, "imap://user:password@host:port/MAILBOX or imaps://…")
      .optional(),
  ),
  BOUNCE_SMTP_PORT: variable(anyPort().optional()),
  MAIL_CATCHER_SMTP_PORT: variable(port(1025)),
  MAIL_CATCHER_WEB_PORT: variable(port(1080)),
  PAGE_VIEWS: variable(z.enum(["on", "off"]).default("on")),
  WEBHOOKS_ALLOW_PRIVATE: variable(z.enum(["true", "false"]).default("false")),
  METRICS_TOKEN: variable(
    z
      .string()
      .min(32, "at least 32 characters (for example `openssl rand -hex 32`)")
      .regex(/^[\x21-\x7e]+$/, "printable characters without spaces")
      .optional(),
  ),
  METRICS_PORT: variable(anyPort().optional()),
  METRICS_HOST: variable(z.string().default("127.0.0.1")),
});

type Variables = z.output<typeof VariablesSchema>;

/** Any of these set means a real Firebase project; none means emulator mode. */
const usesRealFirebase = (v: Variables) =>
  [v.FIREBASE_API_KEY, v.FIREBASE_AUTH_DOMAIN, v.FIREBASE_APP_ID].some((x) => x !== undefined);

/**
 * The rules that join variables. A problem about two variables names both (its path). zod runs an
 * object's refinements only when every field passed; `when` runs these anyway, so a bad PORT and a
 * missing FIREBASE_APP_ID are reported together. A rule reads only variables that passed their
 * own check (the others hold whatever zod had when it stopped).
 */
function checkCombinations(v: Variables, ctx: z.RefinementCtx<Variables>) {
  const malformed = new Set(ctx.issues.map((issue) => issue.path?.[0]));
  const valid = (...keys: (keyof Variables)[]) => keys.every((key) => !malformed.has(key));
  const given = (key: keyof Variables) => malformed.has(key) || v[key] !== undefined;
  const problem = (path: (keyof Variables)[], message: string) =>
    ctx.addIssue({ code: "custom", path, message });

  // Where bounces are read needs the address they come back to.
  for (const key of ["BOUNCE_IMAP_URL", "BOUNCE_SMTP_PORT"] as const)
    if (given(key) && !given("BOUNCE_ADDRESS"))
      problem([key], "needs BOUNCE_ADDRESS, the address bounces come back to");
  if (
    valid("BOUNCE_SMTP_PORT", "PORT") &&
    v.BOUNCE_SMTP_PORT !== undefined &&
    v.BOUNCE_SMTP_PORT === v.PORT
  )
    problem(["BOUNCE_SMTP_PORT"], "must differ from PORT");

  if (valid("METRICS_PORT", "PORT") && v.METRICS_PORT !== undefined && v.METRICS_PORT === v.PORT)
    problem(
      ["METRICS_PORT"],
      "must differ from PORT (metrics on the main port are served to METRICS_TOKEN instead)",
    );

  // The server itself speaks plain HTTP: an https origin means a TLS-terminating proxy in front,
  // and without trusting it every request would look like plain HTTP and be redirected forever.
  if (
    valid("SITE_URL", "TRUST_PROXY") &&
    v.SITE_URL?.startsWith("https://") &&
    v.TRUST_PROXY.length === 0
  ) {
    problem(
      ["TRUST_PROXY"],
      "required when SITE_URL is https: the address or range of the TLS-terminating proxy or load balancer (for example 10.0.0.0/8, or loopback)",
    );
  }

  // Without a relay, start-up catches the site's mail on this machine: right for a developer,
  // silent loss on a public site (no confirmation, invitation or privacy-request link would
  // arrive). A staging site that should send nothing names a catcher's smtp:// address.
  if (
    valid("SITE_URL") &&
    v.SITE_URL !== undefined &&
    !isLocalOrigin(v.SITE_URL) &&
    !given("SMTP_URL")
  )
    problem(
      ["SMTP_URL"],
      "required when SITE_URL is not this machine: without a relay the site's mail (waitlist confirmations, invitations, privacy-request links) is caught locally and reaches no one; a staging site may name a catcher's smtp:// address",
    );

  // Invitations are sent from the admin alone: invite-only with no administrator shuts everyone
  // out, for good.
  if (
    valid("SIGNUP_MODE", "ADMIN_EMAILS") &&
    v.SIGNUP_MODE === "invite" &&
    v.ADMIN_EMAILS.length === 0
  )
    problem(
      ["ADMIN_EMAILS"],
      "required when SIGNUP_MODE is invite: only an administrator can invite, so without one nobody could ever sign in",
    );

  if (usesRealFirebase(v)) {
    const required = [
      "FIREBASE_API_KEY",
      "FIREBASE_AUTH_DOMAIN",
      "FIREBASE_PROJECT_ID",
      "FIREBASE_APP_ID",
    ] as const;
    for (const key of required.filter((k) => !given(k)))
      problem([key], "required when a real Firebase project is configured");
    // Its links (mail, sharing, canonical) would otherwise name http://localhost.
    if (!given("SITE_URL"))
      problem(
        ["SITE_URL"],
        "required with a real Firebase project: the site's public origin, such as https://tieout.ai (http://localhost:3000 for a site on this machine)",
      );
    if (!given("GOOGLE_APPLICATION_CREDENTIALS"))
      problem(
        ["GOOGLE_APPLICATION_CREDENTIALS"],
        "required with a real Firebase project: the path to its service-account key file (Firebase console, Project settings, Service accounts), with which the server checks accounts, revokes sessions and deletes accounts",
      );
    else if (
      valid("GOOGLE_APPLICATION_CREDENTIALS", "FIREBASE_PROJECT_ID") &&
      v.GOOGLE_APPLICATION_CREDENTIALS?.projectId !== v.FIREBASE_PROJECT_ID
    )
      problem(
        ["GOOGLE_APPLICATION_CREDENTIALS", "FIREBASE_PROJECT_ID"],
        `the key belongs to project ${v.GOOGLE_APPLICATION_CREDENTIALS?.projectId}, not ${v.FIREBASE_PROJECT_ID}`,
      );
    if (!given("SESSION_SECRET"))
      problem(
        ["SESSION_SECRET"],
        "required with a real Firebase project (at least 32 random characters)",
      );
    if (!given("ERASURE_KEY"))
      problem(
        ["ERASURE_KEY"],
        "required with a real Firebase project (at least 32 random characters): it keys the hashes by which the log's ledger of erasures names addresses, and a restore needs it",
      );
    // firebase-admin reads this variable itself, and with it skips every token's signature.
    if (given("FIREBASE_AUTH_EMULATOR_HOST"))
      problem(
        ["FIREBASE_AUTH_EMULATOR_HOST"],
        "must be unset with a real Firebase project: with it, firebase-admin asks the emulator instead and accepts unsigned tokens",
      );
    if (valid("FIREBASE_PROJECT_ID") && v.FIREBASE_PROJECT_ID?.startsWith("demo-"))
      problem(
        ["FIREBASE_PROJECT_ID"],
        "a real project's id with a real Firebase project (demo- ids are the emulator's)",
      );
    if (v.FIREBASE_API_KEY?.includes(":"))
      problem(["FIREBASE_API_KEY"], "must not contain a colon (paste the Web API key only)");
  } else {
    if (!/^demo-[a-z0-9-]+$/.test(v.FIREBASE_PROJECT_ID ?? "demo-tieout"))
      problem(
        ["FIREBASE_PROJECT_ID"],
        "in emulator mode (no FIREBASE_API_KEY) it must start with demo-, for example demo-tieout",
      );
    // Emulator tokens are unsigned: fine on a developer's machine, never on a public origin, and
    // never from an emulator somewhere else on the network.
    if (valid("SITE_URL") && v.SITE_URL !== undefined && !isLocalOrigin(v.SITE_URL))
      problem(
        ["SITE_URL", "FIREBASE_API_KEY"],
        "without FIREBASE_API_KEY the site runs on the Auth emulator, whose tokens are unsigned, so SITE_URL must be this machine (http://localhost:3000, unset, or another loopback origin); a public site needs a real Firebase project (FIREBASE_API_KEY, FIREBASE_AUTH_DOMAIN, FIREBASE_PROJECT_ID, FIREBASE_APP_ID)",
      );
    if (
      valid("FIREBASE_AUTH_EMULATOR_HOST") &&
      v.FIREBASE_AUTH_EMULATOR_HOST !== undefined &&
      !isLoopbackHostPort(v.FIREBASE_AUTH_EMULATOR_HOST)
    )
      problem(
        ["FIREBASE_AUTH_EMULATOR_HOST"],
        "the Auth emulator must listen on this machine's loopback, for example 127.0.0.1:9099",
      );
  }

  if (given("WAITLIST_FORWARD_URL") && !given("WAITLIST_FORWARD_FIELDS"))
    problem(
      ["WAITLIST_FORWARD_FIELDS"],
      "four comma-separated field names for name, email, company and message",
    );
  if (given("WAITLIST_FORWARD_FIELDS") && !given("WAITLIST_FORWARD_URL"))
    problem(["WAITLIST_FORWARD_URL"], "an http(s) URL, set together with WAITLIST_FORWARD_FIELDS");

  const dkim = ["DKIM_DOMAIN", "DKIM_SELECTOR", "DKIM_PRIVATE_KEY"] as const;
  if (dkim.some(given))
    for (const key of dkim.filter((k) => !given(k)))
      problem(
        [key],
        "DKIM signing needs all three of DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY",
      );
}

/** The configuration the server uses, from variables that passed every check. */
function toEnv(v: Variables) {
  return {
    nodeEnv: v.NODE_ENV,
    /** pino's level: info by default. */
    logLevel: v.LOG_LEVEL,
    port: v.PORT,
    host: v.HOST,
    /** Canonical origin, no trailing slash. */
    siteUrl: v.SITE_URL ?? `http://localhost:${v.PORT}`,
    /**
     * The proxies whose X-Forwarded-Proto and X-Forwarded-For are believed (addresses, CIDR ranges
     * or proxy-addr's names such as loopback), for Fastify's trustProxy. Empty: believe no one.
     */
    trustProxy: v.TRUST_PROXY,
    dataDir: v.DATA_DIR,
    databaseUrl: v.DATABASE_URL,
    firebase: usesRealFirebase(v)
      ? {
          mode: "production" as const,
          // All four are set: checkCombinations requires them with a real project.
          apiKey: v.FIREBASE_API_KEY!,
          authDomain: v.FIREBASE_AUTH_DOMAIN!,
          projectId: v.FIREBASE_PROJECT_ID!,
          appId: v.FIREBASE_APP_ID!,
          serviceAccount: v.GOOGLE_APPLICATION_CREDENTIALS!,
        }
      : {
          mode: "emulator" as const,
          projectId: v.FIREBASE_PROJECT_ID ?? "demo-tieout",
          emulatorHost: v.FIREBASE_AUTH_EMULATOR_HOST ?? "127.0.0.1:9099",
        },
    /**
     * Newest first: the first signs session cookies, every one verifies (rotation). Empty in
     * emulator mode without SESSION_SECRET (one is generated and kept in DATA_DIR).
     */
    sessionSecrets: v.SESSION_SECRET ?? [],
    /**
     * Newest first: the first keys the ledger of erasures' hashes, every one matches them in a
     * restore. Empty in emulator mode without ERASURE_KEY (one is generated and kept in DATA_DIR).
     */
    erasureKeys: v.ERASURE_KEY ?? [],
    adminEmails: v.ADMIN_EMAILS,
    waitlistRateLimit: v.WAITLIST_RATE_LIMIT,
    /** Sign-ins (ID tokens exchanged for a session) per minute per client address; 0: no limit. */
    sessionRateLimit: v.SESSION_RATE_LIMIT,
    /** How long a session goes on the account's standing last read from Firebase (0: every request). */
    sessionRecheckSeconds: v.SESSION_RECHECK_SECONDS,
    waitlistForward:
      v.WAITLIST_FORWARD_URL && v.WAITLIST_FORWARD_FIELDS
        ? { url: v.WAITLIST_FORWARD_URL, fields: v.WAITLIST_FORWARD_FIELDS }
        : undefined,
    demoEmbed: v.DEMO_VIDEO_URL,
    mail: {
      /** Unset: nothing leaves the machine (npm start points the outbox at a local catcher). */
      relay: v.SMTP_URL,
      from: v.MAIL_FROM,
      dkim:
        v.DKIM_DOMAIN && v.DKIM_SELECTOR && v.DKIM_PRIVATE_KEY
          ? {
              domainName: v.DKIM_DOMAIN,
              keySelector: v.DKIM_SELECTOR,
              privateKey: v.DKIM_PRIVATE_KEY,
            }
          : undefined,
      catcher: { smtpPort: v.MAIL_CATCHER_SMTP_PORT, webPort: v.MAIL_CATCHER_WEB_PORT },
    },
    slackWebhookUrl: v.SLACK_WEBHOOK_URL,
    /**
     * Webhook endpoints may be on loopback, private and link-local addresses (decision 046): for
     * local use and tests only. Off, such a host is refused at saving and at every delivery.
     */
    webhooksAllowPrivate: v.WEBHOOKS_ALLOW_PRIVATE === "true",
    /** Page views counted per day, page and source, without cookies (server/operations/page-views.ts). */
    pageViews: v.PAGE_VIEWS === "on",
    /**
     * Prometheus metrics (server/operations/metrics.ts): on the main port for this bearer token, and/or on a
     * port of their own; neither: no /metrics at all.
     */
    metrics: {
      token: v.METRICS_TOKEN,
      listen:
        v.METRICS_PORT === undefined ? undefined : { port: v.METRICS_PORT, host: v.METRICS_HOST },
    },
    /**
     * "open": anyone may create an account and sign in. "invite": only admins and invited or
     * joined waitlist entries get a session (decision 024).
     */
    signupMode: v.SIGNUP_MODE,
    /** How long an invitation link works, in days. */
    inviteTtlDays: v.INVITE_TTL_DAYS,
    /**
     * How fast broadcasts are handed to the relay (decision 041): 300 a minute by default, within
     * what common relays accept from a new sender (5 a second).
     */
    broadcastRatePerMinute: v.BROADCAST_RATE_PER_MINUTE,
    /**
     * Bounces and complaints (decision 041): each mail's envelope sender is BOUNCE_ADDRESS with a
     * token naming it (VERP); what comes back is read from a mailbox (IMAP) and/or received on a
     * port of the site's own (for an MX pointed at it). Unset: refusals at send time only.
     */
    bounces: v.BOUNCE_ADDRESS
      ? { address: v.BOUNCE_ADDRESS, imapUrl: v.BOUNCE_IMAP_URL, smtpPort: v.BOUNCE_SMTP_PORT }
      : undefined,
  };
}

const EnvSchema = VariablesSchema.superRefine(checkCombinations, { when: () => true }).transform(
  toEnv,
);

export type Env = z.output<typeof EnvSchema>;

export class EnvError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "EnvError";
  }
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = EnvSchema.safeParse(source);
  if (result.success) return result.data;
  throw new EnvError(
    result.error.issues.map((issue) => `${issue.path.map(String).join(" and ")}: ${issue.message}`),
  );
}
