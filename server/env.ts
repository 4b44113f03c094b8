/**
 * The one place that reads process.env. Everything is checked at start-up; a bad value stops the
 * server with a message naming the variable. Empty strings count as unset.
 */
import { isIP } from "node:net";
import { z } from "zod";
import { parseDemoEmbed, type DemoEmbed } from "#src/lib/demo-embed.ts";

const optional = <T>(schema: z.ZodType<T, string>) =>
  z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
    schema.optional(),
  );

const EMAIL = z.email();

const RawEnvSchema = z.object({
  NODE_ENV: optional(z.enum(["production", "development", "test"])),
  PORT: optional(z.string().regex(/^\d{1,5}$/, "a port number from 1 to 65535")),
  HOST: optional(z.string()),
  SITE_URL: optional(z.string()),
  TRUST_PROXY: optional(z.string()),
  LOG_LEVEL: optional(z.enum(["debug", "info", "warn", "error", "silent"])),
  DATA_DIR: optional(z.string()),
  DATABASE_URL: optional(
    z.string().regex(/^postgres(ql)?:\/\//, "a postgres:// or postgresql:// connection URL"),
  ),
  FIREBASE_API_KEY: optional(z.string()),
  FIREBASE_AUTH_DOMAIN: optional(z.string()),
  FIREBASE_PROJECT_ID: optional(z.string()),
  FIREBASE_APP_ID: optional(z.string()),
  FIREBASE_AUTH_EMULATOR_HOST: optional(
    z.string().regex(/^[A-Za-z0-9.-]+:\d{1,5}$/, "host:port, for example 127.0.0.1:9099"),
  ),
  SESSION_SECRET: optional(
    z
      .string()
      .transform((v) => v.split(",").map((secret) => secret.trim()))
      .refine(
        (secrets) => secrets.every((secret) => secret.length >= 32),
        "each secret at least 32 characters (for example: openssl rand -base64 48); to rotate, list the new one first, a comma, then the old one",
      ),
  ),
  ADMIN_EMAILS: optional(z.string()),
  WAITLIST_RATE_LIMIT: optional(z.string().regex(/^\d+$/, "a whole number (0 turns it off)")),
  SESSION_RATE_LIMIT: optional(z.string().regex(/^\d+$/, "a whole number (0 turns it off)")),
  SESSION_RECHECK_SECONDS: optional(
    z
      .string()
      .regex(/^\d+$/, "a whole number of seconds")
      .refine((v) => Number(v) <= 3600, "at most 3600 (an hour)"),
  ),
  WAITLIST_FORWARD_URL: optional(z.string()),
  WAITLIST_FORWARD_FIELDS: optional(z.string()),
  DEMO_VIDEO_URL: optional(z.string()),
});

export type Env = {
  nodeEnv: "production" | "development" | "test";
  port: number;
  host: string;
  /** Canonical origin, no trailing slash. */
  siteUrl: string;
  /**
   * The proxies whose X-Forwarded-Proto and X-Forwarded-For are believed (addresses, CIDR ranges or
   * proxy-addr's names such as loopback), for Fastify's trustProxy. Empty: believe no one.
   */
  trustProxy: readonly string[];
  /** pino's level: info by default. */
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  dataDir: string;
  databaseUrl: string | undefined;
  firebase:
    | { mode: "emulator"; projectId: string; emulatorHost: string }
    | { mode: "production"; apiKey: string; authDomain: string; projectId: string; appId: string };
  /** Signs the session cookie; unset in emulator mode means one is generated and kept in DATA_DIR. */
  /** Newest first: the first signs session cookies, every one verifies (rotation). Empty in
   * emulator mode without SESSION_SECRET (one is generated and kept in DATA_DIR). */
  sessionSecrets: readonly string[];
  adminEmails: readonly string[];
  waitlistRateLimit: number;
  /** Sign-ins (ID tokens exchanged for a session) per minute per client address; 0: no limit. */
  sessionRateLimit: number;
  /** How long a session goes on the account's standing last read from Firebase (0: every request). */
  sessionRecheckSeconds: number;
  waitlistForward: { url: string; fields: readonly [string, string, string, string] } | undefined;
  demoEmbed: DemoEmbed | undefined;
};

/** host:port on the loopback interface: 127.x.x.x, localhost or [::1]. */
function isLoopbackHostPort(hostPort: string): boolean {
  return /^(?:127(?:\.\d{1,3}){3}|localhost|\[::1\]):\d{1,5}$/.test(hostPort);
}

function isLocalOrigin(origin: string): boolean {
  try {
    const { hostname } = new URL(origin);
    return (
      hostname === "localhost" || hostname === "[::1]" || /^127(?:\.\d{1,3}){3}$/.test(hostname)
    );
  } catch {
    return false;
  }
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

export class EnvError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "EnvError";
  }
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const problems: string[] = [];
  const parsed = RawEnvSchema.safeParse(source);
  let raw: z.infer<typeof RawEnvSchema>;
  if (parsed.success) {
    raw = parsed.data;
  } else {
    // Report every bad key at once: drop the malformed ones and go on checking the rest.
    const bad = new Set(parsed.error.issues.map((issue) => String(issue.path[0])));
    for (const issue of parsed.error.issues)
      problems.push(`${issue.path.join(".")}: ${issue.message}`);
    raw = RawEnvSchema.parse(
      Object.fromEntries(Object.entries(source).filter(([key]) => !bad.has(key))),
    );
  }

  const port = Number(raw.PORT ?? "3000");
  if (port < 1 || port > 65535) problems.push("PORT: a port number from 1 to 65535");

  const siteUrl = (raw.SITE_URL ?? `http://localhost:${port}`).replace(/\/+$/, "");
  let siteUrlOk = true;
  try {
    const u = new URL(siteUrl);
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error();
    if (u.pathname !== "/" || u.search || u.hash || u.username) throw new Error();
  } catch {
    siteUrlOk = false;
    problems.push("SITE_URL: an origin such as https://tieout.ai (http or https, no path)");
  }

  const trustProxy = (raw.TRUST_PROXY ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  for (const entry of trustProxy) {
    if (!isProxyAddress(entry)) {
      problems.push(
        `TRUST_PROXY: "${entry}" is not an IP address, a CIDR range (10.0.0.0/8) or one of loopback, linklocal, uniquelocal`,
      );
    }
  }
  // The server itself speaks plain HTTP: an https origin means a TLS-terminating proxy in front,
  // and without trusting it every request would look like plain HTTP and be redirected forever.
  if (siteUrl.startsWith("https://") && trustProxy.length === 0) {
    problems.push(
      "TRUST_PROXY: required when SITE_URL is https: the address or range of the TLS-terminating proxy or load balancer (for example 10.0.0.0/8, or loopback)",
    );
  }

  let firebase: Env["firebase"];
  const real = [raw.FIREBASE_API_KEY, raw.FIREBASE_AUTH_DOMAIN, raw.FIREBASE_APP_ID];
  if (real.some((v) => v !== undefined)) {
    const required = {
      FIREBASE_API_KEY: raw.FIREBASE_API_KEY,
      FIREBASE_AUTH_DOMAIN: raw.FIREBASE_AUTH_DOMAIN,
      FIREBASE_PROJECT_ID: raw.FIREBASE_PROJECT_ID,
      FIREBASE_APP_ID: raw.FIREBASE_APP_ID,
    };
    for (const [key, value] of Object.entries(required)) {
      if (!value) problems.push(`${key}: required when a real Firebase project is configured`);
    }
    if (!raw.SESSION_SECRET) {
      problems.push(
        "SESSION_SECRET: required with a real Firebase project (at least 32 random characters)",
      );
    }
    if (raw.FIREBASE_API_KEY?.includes(":")) {
      problems.push("FIREBASE_API_KEY: must not contain a colon (paste the Web API key only)");
    }
    firebase = {
      mode: "production",
      apiKey: raw.FIREBASE_API_KEY ?? "",
      authDomain: raw.FIREBASE_AUTH_DOMAIN ?? "",
      projectId: raw.FIREBASE_PROJECT_ID ?? "",
      appId: raw.FIREBASE_APP_ID ?? "",
    };
  } else {
    const projectId = raw.FIREBASE_PROJECT_ID ?? "demo-tieout";
    if (!/^demo-[a-z0-9-]+$/.test(projectId)) {
      problems.push(
        "FIREBASE_PROJECT_ID: in emulator mode (no FIREBASE_API_KEY) it must start with demo-, for example demo-tieout",
      );
    }
    // Emulator tokens are unsigned: fine on a developer's machine, never on a public origin, and
    // never from an emulator somewhere else on the network.
    if (siteUrlOk && !isLocalOrigin(siteUrl)) {
      problems.push(
        "SITE_URL and FIREBASE_API_KEY: without FIREBASE_API_KEY the site runs on the Auth emulator, whose tokens are unsigned, so SITE_URL must be this machine (http://localhost:3000, unset, or another loopback origin); a public site needs a real Firebase project (FIREBASE_API_KEY, FIREBASE_AUTH_DOMAIN, FIREBASE_PROJECT_ID, FIREBASE_APP_ID)",
      );
    }
    const emulatorHost = raw.FIREBASE_AUTH_EMULATOR_HOST ?? "127.0.0.1:9099";
    if (!isLoopbackHostPort(emulatorHost)) {
      problems.push(
        "FIREBASE_AUTH_EMULATOR_HOST: the Auth emulator must listen on this machine's loopback, for example 127.0.0.1:9099",
      );
    }
    firebase = { mode: "emulator", projectId, emulatorHost };
  }

  const adminEmails = (raw.ADMIN_EMAILS ?? "")
    .split(",")
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  for (const email of adminEmails) {
    if (!EMAIL.safeParse(email).success) problems.push(`ADMIN_EMAILS: "${email}" is not an email`);
  }

  let waitlistForward: Env["waitlistForward"];
  if (raw.WAITLIST_FORWARD_URL || raw.WAITLIST_FORWARD_FIELDS) {
    const fields = (raw.WAITLIST_FORWARD_FIELDS ?? "").split(",").map((f) => f.trim());
    let urlOk = false;
    try {
      urlOk = /^https?:$/.test(new URL(raw.WAITLIST_FORWARD_URL ?? "").protocol);
    } catch {
      urlOk = false;
    }
    if (!urlOk)
      problems.push(
        "WAITLIST_FORWARD_URL: an http(s) URL, set together with WAITLIST_FORWARD_FIELDS",
      );
    if (fields.length !== 4 || fields.some((f) => !f)) {
      problems.push(
        "WAITLIST_FORWARD_FIELDS: four comma-separated field names for name, email, company and message",
      );
    }
    const [a = "", b = "", c = "", d = ""] = fields;
    waitlistForward = { url: raw.WAITLIST_FORWARD_URL ?? "", fields: [a, b, c, d] };
  }

  let demoEmbed: DemoEmbed | undefined;
  if (raw.DEMO_VIDEO_URL) {
    demoEmbed = parseDemoEmbed(raw.DEMO_VIDEO_URL) ?? undefined;
    if (!demoEmbed) {
      problems.push("DEMO_VIDEO_URL: an https link to a YouTube, Vimeo or Loom video");
    }
  }

  if (problems.length > 0) throw new EnvError(problems);

  const nodeEnv = raw.NODE_ENV ?? "production";
  return {
    nodeEnv,
    logLevel: raw.LOG_LEVEL ?? "info",
    port,
    host: raw.HOST ?? "0.0.0.0",
    siteUrl,
    trustProxy,
    dataDir: raw.DATA_DIR ?? "./data",
    databaseUrl: raw.DATABASE_URL,
    firebase,
    sessionSecrets: raw.SESSION_SECRET ?? [],
    adminEmails,
    waitlistRateLimit: Number(raw.WAITLIST_RATE_LIMIT ?? "10"),
    sessionRateLimit: Number(raw.SESSION_RATE_LIMIT ?? "20"),
    sessionRecheckSeconds: Number(raw.SESSION_RECHECK_SECONDS ?? "300"),
    waitlistForward,
    demoEmbed,
  };
}
