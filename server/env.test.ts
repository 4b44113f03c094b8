import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { EnvError, parseEnv } from "#server/env.ts";
import { realFirebaseProject } from "#tests/support/deployed.ts";

/** A real Firebase project's settings, which a public https site needs. */
const REAL_FIREBASE = {
  ...realFirebaseProject("tieout"),
  SESSION_SECRET: "x".repeat(32),
  ERASURE_KEY: "k".repeat(32),
  SITE_URL: "http://localhost:3000",
};

/** What a public site needs besides: its relay for mail. */
const RELAY = { SMTP_URL: "smtp://relay.example.com" };

function problems(source: Record<string, string>): string[] {
  try {
    parseEnv(source);
  } catch (error) {
    if (error instanceof EnvError) return [...error.problems];
    throw error;
  }
  return [];
}

describe("parseEnv", () => {
  test("SESSION_SECRET may list several secrets, newest first, for rotation; each must be long", () => {
    const env = parseEnv({ SESSION_SECRET: `${"n".repeat(32)}, ${"o".repeat(40)}` });
    expect(env.sessionSecrets).toEqual(["n".repeat(32), "o".repeat(40)]);
    expect(problems({ SESSION_SECRET: `${"n".repeat(32)},short` }).join("\n")).toMatch(
      /SESSION_SECRET: each secret at least 32 characters/,
    );
  });

  test("a fresh clone runs with defaults: emulator mode, port 3000, embedded database", () => {
    const env = parseEnv({});
    expect(env.port).toBe(3000);
    expect(env.host).toBe("0.0.0.0");
    expect(env.siteUrl).toBe("http://localhost:3000");
    expect(env.dataDir).toBe("./data");
    expect(env.databaseUrl).toBeUndefined();
    expect(env.firebase).toEqual({
      mode: "emulator",
      projectId: "demo-tieout",
      emulatorHost: "127.0.0.1:9099",
    });
    expect(env.waitlistRateLimit).toBeGreaterThan(0);
  });

  test("empty strings count as unset", () => {
    expect(parseEnv({ PORT: "", SITE_URL: " ", DEMO_VIDEO_URL: "" }).port).toBe(3000);
  });

  test("SITE_URL follows PORT and loses a trailing slash", () => {
    expect(parseEnv({ PORT: "8080" }).siteUrl).toBe("http://localhost:8080");
    expect(
      parseEnv({
        ...REAL_FIREBASE,
        ...RELAY,
        SITE_URL: "https://tieout.ai/",
        TRUST_PROXY: "loopback",
      }).siteUrl,
    ).toBe("https://tieout.ai");
  });

  test("TRUST_PROXY lists addresses, ranges and names; nothing is trusted by default", () => {
    expect(parseEnv({}).trustProxy).toEqual([]);
    expect(
      parseEnv({ TRUST_PROXY: "10.0.0.0/8, 127.0.0.1,::1, fd00::/8,loopback" }).trustProxy,
    ).toEqual(["10.0.0.0/8", "127.0.0.1", "::1", "fd00::/8", "loopback"]);
    for (const bad of ["*", "true", "10.0.0.0/33", "::1/129", "example.com", "10.0.0.1/8/2", "1"]) {
      expect(problems({ TRUST_PROXY: bad }), bad).toEqual([expect.stringMatching(/^TRUST_PROXY:/)]);
    }
  });

  test("an https origin needs a trusted TLS-terminating proxy, or every request would redirect", () => {
    expect(problems({ ...REAL_FIREBASE, ...RELAY, SITE_URL: "https://tieout.ai" })).toEqual([
      expect.stringMatching(/^TRUST_PROXY: required when SITE_URL is https/),
    ]);
    expect(problems({ SITE_URL: "http://localhost:3000" })).toEqual([]);
  });

  test("the Auth emulator (unsigned tokens) is refused for any origin but this machine, and from anywhere but loopback", () => {
    for (const SITE_URL of ["https://tieout.ai", "http://tieout.ai", "http://192.168.1.20:3000"]) {
      expect(problems({ ...RELAY, SITE_URL, TRUST_PROXY: "loopback" }), SITE_URL).toEqual([
        expect.stringMatching(/^SITE_URL and FIREBASE_API_KEY: without FIREBASE_API_KEY/),
      ]);
    }
    for (const SITE_URL of ["https://localhost", "http://127.0.0.1:3100", "http://[::1]:3000"])
      expect(problems({ SITE_URL, TRUST_PROXY: "loopback" }), SITE_URL).toEqual([]);
    expect(problems({ FIREBASE_AUTH_EMULATOR_HOST: "10.0.0.5:9099" })).toEqual([
      expect.stringMatching(/^FIREBASE_AUTH_EMULATOR_HOST: the Auth emulator must listen/),
    ]);
    expect(problems({ FIREBASE_AUTH_EMULATOR_HOST: "localhost:9199" })).toEqual([]);
    expect(
      problems({
        ...REAL_FIREBASE,
        ...RELAY,
        SITE_URL: "https://tieout.ai",
        TRUST_PROXY: "loopback",
      }),
    ).toEqual([]);
  });

  test("each bad value is named", () => {
    const found = problems({
      PORT: "eighty",
      SITE_URL: "tieout.ai/home",
      DATABASE_URL: "mysql://x",
      WAITLIST_RATE_LIMIT: "-1",
      DEMO_VIDEO_URL: "https://example.com/video",
    });
    // In the order of the schema, which is the README table's.
    expect(found.map((p) => p.split(":")[0])).toEqual([
      "PORT",
      "SITE_URL",
      "DATABASE_URL",
      "WAITLIST_RATE_LIMIT",
      "DEMO_VIDEO_URL",
    ]);
    expect(problems({ SITE_URL: "tieout.ai/home" })[0]).toMatch(/^SITE_URL:/);
    expect(problems({ SITE_URL: "https://tieout.ai/app" })[0]).toMatch(/^SITE_URL:/);
    expect(problems({ DEMO_VIDEO_URL: "https://example.com/video" })[0]).toMatch(
      /^DEMO_VIDEO_URL:/,
    );
    expect(problems({ PORT: "70000" })[0]).toMatch(/^PORT:/);
  });

  test("a malformed value and a rule between variables are reported in the same error", () => {
    // zod skips an object's refinements once one of its fields fails; these rules run anyway.
    expect(
      problems({ ...RELAY, PORT: "abc", SITE_URL: "https://x.example", TRUST_PROXY: "loopback" }),
    ).toEqual([
      "PORT: a port number from 1 to 65535",
      expect.stringMatching(/^SITE_URL and FIREBASE_API_KEY: without FIREBASE_API_KEY/),
    ]);
    expect(
      problems({ PORT: "abc", FIREBASE_API_KEY: "AIzaSyExample" }).map((p) => p.split(":")[0]),
    ).toEqual([
      "PORT",
      "FIREBASE_AUTH_DOMAIN",
      "FIREBASE_PROJECT_ID",
      "FIREBASE_APP_ID",
      "SITE_URL",
      "GOOGLE_APPLICATION_CREDENTIALS",
      "SESSION_SECRET",
      "ERASURE_KEY",
    ]);
  });

  test("a rule reads only values that passed their own check", () => {
    // A short secret is reported as short, not also as missing.
    expect(problems({ ...REAL_FIREBASE, SESSION_SECRET: "short" })).toEqual([
      expect.stringMatching(/^SESSION_SECRET: each secret at least 32 characters/),
    ]);
    // A port out of range is one problem; the SITE_URL derived from it is not a second.
    expect(problems({ PORT: "70000" })).toEqual(["PORT: a port number from 1 to 65535"]);
  });

  test("a real Firebase project needs all four values, and an API key without a colon", () => {
    expect(problems({ FIREBASE_API_KEY: "AIzaSyExample" }).map((p) => p.split(":")[0])).toEqual([
      "FIREBASE_AUTH_DOMAIN",
      "FIREBASE_PROJECT_ID",
      "FIREBASE_APP_ID",
      "SITE_URL",
      "GOOGLE_APPLICATION_CREDENTIALS",
      "SESSION_SECRET",
      "ERASURE_KEY",
    ]);
    const complete = REAL_FIREBASE;
    expect(parseEnv(complete).firebase.mode).toBe("production");
    expect(problems({ ...complete, FIREBASE_API_KEY: "key:with:colon" })).toEqual([
      "FIREBASE_API_KEY: must not contain a colon (paste the Web API key only)",
    ]);
    expect(problems({ ...complete, FIREBASE_API_KEY: "" })[0]).toMatch(
      /^FIREBASE_API_KEY: required/,
    );
  });

  test("a session secret must be long enough to be a secret", () => {
    expect(problems({ SESSION_SECRET: "short" })[0]).toMatch(/^SESSION_SECRET:/);
  });

  test("ERASURE_KEY may list several keys, newest first, each long enough to be a secret", () => {
    expect(parseEnv({ ERASURE_KEY: `${"n".repeat(32)}, ${"o".repeat(40)}` }).erasureKeys).toEqual([
      "n".repeat(32),
      "o".repeat(40),
    ]);
    expect(parseEnv({}).erasureKeys).toEqual([]);
    expect(problems({ ERASURE_KEY: `${"n".repeat(32)},short` })[0]).toMatch(
      /^ERASURE_KEY: each key at least 32 characters/,
    );
  });

  test("emulator mode insists on a demo- project id", () => {
    expect(problems({ FIREBASE_PROJECT_ID: "tieout-prod" })[0]).toMatch(/^FIREBASE_PROJECT_ID:/);
    expect(parseEnv({ FIREBASE_PROJECT_ID: "demo-other" }).firebase.projectId).toBe("demo-other");
  });

  test("admin emails are trimmed, lowercased and checked", () => {
    expect(parseEnv({ ADMIN_EMAILS: " Ops@Tieout.ai, cfo@tieout.ai " }).adminEmails).toEqual([
      "ops@tieout.ai",
      "cfo@tieout.ai",
    ]);
    expect(problems({ ADMIN_EMAILS: "ops@tieout.ai,not-an-email" })[0]).toMatch(/^ADMIN_EMAILS:/);
  });

  test("forwarding needs a URL and exactly four field names", () => {
    expect(problems({ WAITLIST_FORWARD_URL: "https://forms.example/submit" })[0]).toMatch(
      /^WAITLIST_FORWARD_FIELDS:/,
    );
    const env = parseEnv({
      WAITLIST_FORWARD_URL: "https://forms.example/submit",
      WAITLIST_FORWARD_FIELDS: "entry.1,entry.2,entry.3,entry.4",
    });
    expect(env.waitlistForward?.fields).toEqual(["entry.1", "entry.2", "entry.3", "entry.4"]);
  });

  test("a demo video link becomes an embed", () => {
    expect(parseEnv({ DEMO_VIDEO_URL: "https://youtu.be/dQw4w9WgXcQ" }).demoEmbed?.provider).toBe(
      "YouTube",
    );
  });

  test("mail: no SMTP_URL means no relay; the sender defaults to the site facts", () => {
    const env = parseEnv({});
    expect(env.mail.relay).toBeUndefined();
    expect(env.mail.from).toEqual({ name: "Tieout", address: "hello@tieout.ai" });
    expect(env.mail.dkim).toBeUndefined();
    expect(env.mail.catcher).toEqual({ smtpPort: 1025, webPort: 1080 });
  });

  test("a real project refuses the emulator's variable, which would skip every signature, and a demo- id", () => {
    expect(problems({ ...REAL_FIREBASE, FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099" })).toEqual([
      expect.stringMatching(
        /^FIREBASE_AUTH_EMULATOR_HOST: must be unset with a real Firebase project/,
      ),
    ]);
    expect(problems({ ...REAL_FIREBASE, FIREBASE_AUTH_EMULATOR_HOST: "" })).toEqual([]);
    expect(problems({ ...REAL_FIREBASE, FIREBASE_PROJECT_ID: "demo-tieout" })).toEqual([
      "GOOGLE_APPLICATION_CREDENTIALS and FIREBASE_PROJECT_ID: the key belongs to project tieout, not demo-tieout",
      expect.stringMatching(/^FIREBASE_PROJECT_ID: a real project's id/),
    ]);
  });

  test("a real project needs its service-account key, checked at start-up, not at the first sign-in", () => {
    const { GOOGLE_APPLICATION_CREDENTIALS: keyFile, ...withoutKey } = REAL_FIREBASE;
    expect(problems(withoutKey)).toEqual([
      expect.stringMatching(
        /^GOOGLE_APPLICATION_CREDENTIALS: required with a real Firebase project/,
      ),
    ]);
    expect(parseEnv(REAL_FIREBASE).firebase).toMatchObject({
      serviceAccount: { path: keyFile, projectId: "tieout" },
    });
    const folder = mkdtempSync(path.join(tmpdir(), "env-test-"));
    const write = (name: string, text: string) => {
      writeFileSync(path.join(folder, name), text);
      return path.join(folder, name);
    };
    const key = JSON.parse(readFileSync(keyFile, "utf8")) as Record<string, string>;
    for (const bad of [
      path.join(folder, "missing.json"),
      write("not-json.json", "-----BEGIN PRIVATE KEY-----"),
      write("user.json", JSON.stringify({ ...key, type: "authorized_user" })),
      write("no-email.json", JSON.stringify({ ...key, client_email: undefined })),
      write("bad-key.json", JSON.stringify({ ...key, private_key: "not a key" })),
    ])
      expect(problems({ ...REAL_FIREBASE, GOOGLE_APPLICATION_CREDENTIALS: bad }), bad).toEqual([
        expect.stringMatching(
          new RegExp(
            `^GOOGLE_APPLICATION_CREDENTIALS: a readable service-account key file .* not ${bad}`,
          ),
        ),
      ]);
    rmSync(folder, { recursive: true });
  });

  test("a real project needs SITE_URL, or its mail would link to localhost; HOST is an address", () => {
    const withoutSite: Record<string, string> = { ...REAL_FIREBASE };
    delete withoutSite.SITE_URL;
    expect(problems(withoutSite)).toEqual([
      expect.stringMatching(/^SITE_URL: required with a real Firebase project/),
    ]);
    for (const host of ["0.0.0.0", "::", "127.0.0.1", "localhost", "app.internal"])
      expect(problems({ HOST: host }), host).toEqual([]);
    for (const host of ["not a host!", "-x", "10.0.0.1:80"])
      expect(problems({ HOST: host })[0], host).toMatch(/^HOST: an address or name to listen on/);
  });

  test("a public site needs SMTP_URL, or its mail would be caught on the machine and reach no one", () => {
    const site = { ...REAL_FIREBASE, SITE_URL: "https://tieout.ai", TRUST_PROXY: "loopback" };
    expect(problems(site)).toEqual([
      expect.stringMatching(/^SMTP_URL: required when SITE_URL is not this machine/),
    ]);
    expect(problems({ ...site, ...RELAY })).toEqual([]);
    // A developer's machine, with the emulator or a real project, may use the local inbox.
    expect(problems({ SITE_URL: "http://127.0.0.1:3000" })).toEqual([]);
    expect(problems({ ...REAL_FIREBASE, SITE_URL: "http://localhost:3000" })).toEqual([]);
  });

  test("SMTP_URL: smtp or smtps, a host, an optional port and login; the password is never shown", () => {
    expect(parseEnv({ SMTP_URL: "smtp://relay.example.com" }).mail.relay).toEqual({
      host: "relay.example.com",
      port: 587,
      secure: false,
      auth: undefined,
      display: "smtp://relay.example.com",
    });
    const relay = parseEnv({ SMTP_URL: "smtps://ops%40tieout.ai:s%3Acret@mail.example.com:2465" })
      .mail.relay;
    expect(relay).toMatchObject({
      host: "mail.example.com",
      port: 2465,
      secure: true,
      auth: { user: "ops@tieout.ai", pass: "s:cret" },
    });
    expect(relay?.display).not.toContain("cret");
    for (const bad of [
      "http://relay.example.com",
      "relay.example.com:587",
      "smtp://relay.example.com/path",
      "smtp://:secret@relay.example.com",
    ])
      expect(problems({ SMTP_URL: bad }), bad).toEqual([expect.stringMatching(/^SMTP_URL: /)]);
    expect(problems({ SMTP_URL: "smtp://u:supersecret@" }).join("\n")).not.toContain("supersecret");
  });

  test("MAIL_FROM: an address, optionally with a name, on one line", () => {
    expect(parseEnv({ MAIL_FROM: "Tieout Team <team@tieout.ai>" }).mail.from).toEqual({
      name: "Tieout Team",
      address: "team@tieout.ai",
    });
    expect(parseEnv({ MAIL_FROM: "team@tieout.ai" }).mail.from).toEqual({
      name: undefined,
      address: "team@tieout.ai",
    });
    expect(problems({ MAIL_FROM: "Team <team@tieout.ai>\r\nBcc: x@y.z" })[0]).toMatch(
      /^MAIL_FROM: one line/,
    );
    expect(problems({ MAIL_FROM: "not an address" })[0]).toMatch(/^MAIL_FROM:/);
  });

  test("DKIM: all three or none, and the key must be a PEM private key", () => {
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 1024 });
    const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    expect(problems({ DKIM_DOMAIN: "tieout.ai" }).sort()).toEqual([
      expect.stringMatching(/^DKIM_PRIVATE_KEY: DKIM signing needs all three/),
      expect.stringMatching(/^DKIM_SELECTOR: DKIM signing needs all three/),
    ]);
    expect(
      problems({ DKIM_DOMAIN: "tieout.ai", DKIM_SELECTOR: "mail", DKIM_PRIVATE_KEY: "abc" })[0],
    ).toMatch(/^DKIM_PRIVATE_KEY: a PEM private key/);
    const oneLine = pem.trim().replace(/\n/g, "\\n");
    expect(
      parseEnv({ DKIM_DOMAIN: "tieout.ai", DKIM_SELECTOR: "mail", DKIM_PRIVATE_KEY: oneLine }).mail
        .dkim,
    ).toEqual({ domainName: "tieout.ai", keySelector: "mail", privateKey: pem.trim() });
  });

  test("SLACK_WEBHOOK_URL must be an https URL", () => {
    expect(problems({ SLACK_WEBHOOK_URL: "http://hooks.slack.com/x" })[0]).toMatch(
      /^SLACK_WEBHOOK_URL:/,
    );
    expect(
      parseEnv({ SLACK_WEBHOOK_URL: "https://hooks.slack.com/services/T/B/x" }).slackWebhookUrl,
    ).toBe("https://hooks.slack.com/services/T/B/x");
  });

  test("SIGNUP_MODE is open or invite, open by default; INVITE_TTL_DAYS a number of days, 14 by default", () => {
    expect(parseEnv({})).toMatchObject({ signupMode: "open", inviteTtlDays: 14 });
    expect(
      parseEnv({ SIGNUP_MODE: "invite", INVITE_TTL_DAYS: "3", ADMIN_EMAILS: "ops@tieout.ai" }),
    ).toMatchObject({
      signupMode: "invite",
      inviteTtlDays: 3,
    });
    expect(problems({ SIGNUP_MODE: "closed", INVITE_TTL_DAYS: "0" }).sort()).toEqual([
      "INVITE_TTL_DAYS: a whole number of days from 1 to 365",
      "SIGNUP_MODE: open (anyone may sign up) or invite (only invited addresses)",
    ]);
    // Only an administrator invites: invite-only without one would let nobody in, ever.
    expect(problems({ SIGNUP_MODE: "invite" })).toEqual([
      expect.stringMatching(/^ADMIN_EMAILS: required when SIGNUP_MODE is invite/),
    ]);
    expect(problems({ INVITE_TTL_DAYS: "two weeks" })).toEqual([
      "INVITE_TTL_DAYS: a whole number of days from 1 to 365",
    ]);
  });
});
