/**
 * Hostile input: random and malicious payloads (fast-check) at every endpoint and every
 * form of a real production server with its own database. Whatever arrives, the answer is never
 * a 5xx (the database is up, so not even 503), never shows a stack trace or echoes markup
 * unescaped, and a refused request stores nothing: at the end the database holds exactly the
 * addresses the server acknowledged.
 */
import { connect } from "node:net";
import fc from "fast-check";
import { signIn } from "#tests/support/accounts.ts";
import { expect, test } from "#tests/support/fixtures.ts";
import { startServer, type RunningServer } from "#tests/support/server.ts";
import { countsByEmail } from "#tests/support/waitlist-db.ts";
import { PUBLIC_PAGES } from "#tests/support/pages.ts";

test.describe.configure({ mode: "serial" });

const RUNS = 80;

/** Strings a hostile visitor would try, mixed into the random ones. */
const NASTY = [
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "javascript:alert(1)",
  "' OR '1'='1' --",
  "'; DROP TABLE waitlist_entries; --",
  '=HYPERLINK("https://evil.example","x")',
  "+cmd|' /C calc'!A0",
  "../../../../etc/passwd",
  "..%2f..%2f..%2fetc%2fpasswd",
  "\u0000",
  "%00",
  "{{7*7}}${7*7}<%= 7*7 %>",
  "__proto__",
  "constructor",
  "\r\nSet-Cookie: owned=1",
  "\u202eevil\u202c",
  "😀".repeat(300),
  "a".repeat(20_000),
  " ",
  "",
];

const hostileText = fc.oneof(
  fc.constantFrom(...NASTY),
  fc.string({ maxLength: 300 }),
  fc.string({ unit: "binary", maxLength: 300 }),
  fc.string({ unit: "grapheme", maxLength: 2000 }),
);
const emailish = fc.oneof(
  fc.emailAddress(),
  fc.emailAddress().map((e) => ` ${e.toUpperCase()} `),
  hostileText,
  fc.tuple(hostileText, fc.domain()).map(([local, domain]) => `${local}@${domain}`),
);
const anyJson = fc.oneof(fc.jsonValue(), fc.anything());
const waitlistFields = fc.record(
  {
    name: fc.oneof(hostileText, anyJson),
    email: fc.oneof(emailish, anyJson),
    company: fc.oneof(hostileText, anyJson),
    message: fc.oneof(hostileText, anyJson),
    utm_source: hostileText,
    utm_campaign: hostileText,
    referrer: hostileText,
    landing_path: hostileText,
    __proto__: fc.constant({ admin: true }),
    extra: anyJson,
  },
  { requiredKeys: [] },
);
/** Submissions that are mostly fine, so the acknowledged path is exercised as hard as the rest. */
const plausibleFields = fc.record(
  {
    name: fc.oneof(fc.string({ minLength: 1, maxLength: 80 }), fc.constantFrom(...NASTY)),
    email: fc.oneof(
      fc.emailAddress(),
      fc.emailAddress().map((e) => ` ${e.toUpperCase()} `),
      fc
        .tuple(
          fc.stringMatching(/^[a-z0-9._+-]{1,20}$/),
          fc.constantFrom("example.com", "firm.cpa"),
        )
        .map(([local, domain]) => `${local}@${domain}`),
    ),
    company: fc.oneof(fc.string({ maxLength: 80 }), fc.constantFrom(...NASTY)),
    message: fc.oneof(fc.string({ maxLength: 500 }), fc.constantFrom(...NASTY)),
  },
  { requiredKeys: ["name", "email"] },
);
const someFields = fc.oneof(waitlistFields, plausibleFields);

/** Header values fetch can carry: visible ASCII, spaces and tabs. */
const headerValue = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 600,
});
const pathSegment = fc.oneof(
  fc.constantFrom(
    "..",
    "%2e%2e",
    "%2f",
    "%ff",
    "%",
    "%00",
    ".git",
    ".env",
    "assets",
    "api",
    "admin",
    "waitlist.data",
    "_root.data",
    "_.data",
    "login.data",
    "index.html",
    "~",
    "%E2%80%AE",
  ),
  fc.webSegment(),
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
);
const hostilePath = fc
  .array(pathSegment, { minLength: 1, maxLength: 6 })
  .map((segments) => `/${segments.join("/")}`);
const query = fc.oneof(
  fc.constant(""),
  fc.webQueryParameters().map((q) => `?${q}`),
  fc
    .dictionary(
      fc.constantFrom("q", "mode", "oobCode", "_routes", "utm_source", "index"),
      hostileText,
    )
    .map((d) => `?${new URLSearchParams(d).toString()}`),
);

/** What no answer may ever contain: traces, file paths, or a hostile tag put back as markup. */
function leaks(body: string): string | null {
  if (/\n\s+at .+[:(].*\d+:\d+\)?/.test(body)) return "a stack trace";
  if (/node_modules|\/work\/|build\/server/.test(body)) return "a server file path";
  if (/<img src=x onerror|<script>alert\(1\)/i.test(body)) return "unescaped hostile markup";
  if (/Set-Cookie: owned/i.test(body) && !/&quot;|&lt;|\\r\\n|value=/.test(body))
    return "an injected header";
  return null;
}

type Sent = { method: string; path: string; status: number; body: string; note?: string };

let server: RunningServer;
/** Addresses the server acknowledged (202), normalised as the database keys them. */
const acknowledged = new Set<string>();
/** Addresses inside requests the server refused. */
const refused = new Set<string>();

async function send(
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: string } = {},
): Promise<Sent> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: init.headers,
    body: init.body,
    redirect: "manual",
  });
  return { method, path, status: response.status, body: await response.text() };
}

/** The waitlist API, posted `fields` as its JSON body. */
const postJson = (fields: Record<string, unknown>) =>
  send("POST", "/api/waitlist", {
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(fields),
  });

function check(sent: Sent) {
  expect(sent.status, `${sent.method} ${sent.path} answered ${sent.status}`).toBeLessThan(500);
  expect(leaks(sent.body), `${sent.method} ${sent.path} showed ${leaks(sent.body)}`).toBeNull();
}

function emailOf(fields: Record<string, unknown>): string | null {
  return typeof fields.email === "string" ? fields.email.trim().toLowerCase() : null;
}

function record(fields: Record<string, unknown>, status: number) {
  const email = emailOf(fields);
  if (email === null) return;
  if (status === 202) acknowledged.add(email);
  else refused.add(email);
}

/** The fields as a form carries them: every value a string. */
function asFormFields(fields: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fields).map(([key, value]) => [
      key,
      typeof value === "string" ? value : (JSON.stringify(value) ?? ""),
    ]),
  );
}

test.beforeAll(async () => {
  // A fresh server and database for each run of the group (--repeat-each runs it again).
  acknowledged.clear();
  refused.clear();
  server = await startServer({ ADMIN_EMAILS: "admin-hostile@tieout.test" });
});

test.afterAll(async () => {
  await server?.stop("SIGKILL");
});

test("the waitlist API takes any JSON body without a 5xx or a leak", async () => {
  await fc.assert(
    fc.asyncProperty(someFields, async (fields) => {
      const sent = await postJson(fields);
      check(sent);
      expect([202, 400, 413, 422]).toContain(sent.status);
      record(fields, sent.status);
    }),
    {
      numRuns: RUNS,
      // Found by this property once (PostgreSQL cannot store NUL): kept as fixed cases.
      examples: [
        [{ name: "Nul Company", email: "nul-company@example.com", company: "\u0000" }],
        [{ name: "Nul Source", email: "nul-source@example.com", utm_source: "a\u0000b" }],
      ],
    },
  );
});

test("the waitlist API refuses broken bodies and odd content types with a 4xx", async () => {
  const contentType = fc.oneof(
    fc.constantFrom(
      "application/json",
      "application/json; charset=utf-16",
      "application/x-www-form-urlencoded",
      "text/plain",
      "multipart/form-data; boundary=x",
      "application/xml",
      "",
    ),
    headerValue,
  );
  const rawBody = fc.oneof(
    fc.string({ maxLength: 2000 }),
    fc.constantFrom("{", "[]", "null", '{"email":', '{"__proto__":{"x":1}}', "a=1&a=2&email="),
    fc.string({ unit: "binary", maxLength: 500 }),
  );
  await fc.assert(
    fc.asyncProperty(contentType, rawBody, async (type, body) => {
      const headers: Record<string, string> = type ? { "Content-Type": type } : {};
      const sent = await send("POST", "/api/waitlist", { headers, body });
      check(sent);
      // Parse the same way the server would, to know whether an address could have been accepted.
      if (sent.status === 202) {
        const fields = type.startsWith("application/json")
          ? (JSON.parse(body) as Record<string, unknown>)
          : Object.fromEntries(new URLSearchParams(body));
        record(fields, sent.status);
      }
    }),
    { numRuns: RUNS },
  );
});

test("the waitlist form (no JavaScript) takes any fields without a 5xx or a leak", async () => {
  await fc.assert(
    fc.asyncProperty(someFields, async (fields) => {
      const form = asFormFields(fields);
      const sent = await send("POST", "/waitlist", {
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(form).toString(),
      });
      check(sent);
      expect([202, 413, 422]).toContain(sent.status);
      // The page thanks the visitor exactly when the entry was taken.
      expect(/on the list!/.test(sent.body)).toBe(sent.status === 202);
      record(form, sent.status);
    }),
    { numRuns: RUNS },
  );
});

test("the sign-in, sign-up and reset forms posted without JavaScript never fail", async () => {
  const fields = fc.dictionary(
    fc.constantFrom("email", "password", "confirmPassword", "name", "oobCode", "mode", "_data"),
    hostileText,
  );
  const path = fc.constantFrom(
    "/login",
    "/signup",
    "/forgot-password",
    "/auth/action",
    "/login.data",
  );
  await fc.assert(
    fc.asyncProperty(path, fields, async (to, form) => {
      const sent = await send("POST", to, {
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(form).toString(),
      });
      check(sent);
    }),
    { numRuns: RUNS },
  );
});

test("the session endpoints refuse any token but a real one, and never fail", async () => {
  const authorization = fc.oneof(
    headerValue,
    headerValue.map((v) => `Bearer ${v}`),
    fc
      .tuple(fc.base64String(), fc.base64String(), fc.base64String())
      .map((parts) => `Bearer ${parts.join(".").replace(/=/g, "")}`),
    fc.constant(`Bearer ${"a".repeat(5000)}`),
  );
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom("POST", "DELETE", "PUT", "PATCH"),
      authorization,
      fc.option(fc.string({ maxLength: 500 })),
      async (method, auth, body) => {
        const sent = await send(method, "/api/session", {
          headers: { Authorization: auth, "Content-Type": "application/json" },
          body: body ?? undefined,
        });
        check(sent);
        if (method === "POST") expect(sent.status).toBeGreaterThanOrEqual(400);
      },
    ),
    { numRuns: RUNS },
  );
});

test("the admin export never opens to a forged token or cookie", async () => {
  const cookie = fc.oneof(
    headerValue,
    headerValue.map((v) => `tieout_session=${v}`),
    fc
      .tuple(fc.base64String(), fc.base64String())
      .map(([data, sig]) => `tieout_session=${data}.${sig}`),
    fc
      .string({ maxLength: 40 })
      .map(
        (uid) =>
          `tieout_session=${Buffer.from(JSON.stringify({ u: uid, e: "admin-hostile@tieout.test", v: true, x: 4102444800 })).toString("base64url")}.forged`,
      ),
  );
  await fc.assert(
    fc.asyncProperty(
      fc.option(headerValue.map((v) => `Bearer ${v}`)),
      cookie,
      fc.constantFrom("/api/admin/waitlist.csv", "/admin/waitlist", "/admin/waitlist?q=%25"),
      async (auth, cookieHeader, path) => {
        const headers: Record<string, string> = { Cookie: cookieHeader };
        if (auth) headers.Authorization = auth;
        const sent = await send("GET", path, { headers });
        check(sent);
        expect(sent.body).not.toContain("Added (UTC)");
        if (path.startsWith("/api/")) expect([401, 403]).toContain(sent.status);
      },
    ),
    { numRuns: RUNS },
  );
});

test("any path, query and method is answered without a 5xx or a leak", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(hostilePath, fc.constantFrom(...PUBLIC_PAGES.map((p) => p.path))),
      query,
      fc.constantFrom("GET", "HEAD", "OPTIONS", "PUT", "PATCH", "DELETE", "POST"),
      fc.option(headerValue),
      async (path, q, method, cookie) => {
        const headers: Record<string, string> = {};
        if (cookie !== null) headers.Cookie = cookie;
        const sent = await send(method, `${path}${q}`, { headers });
        check(sent);
      },
    ),
    { numRuns: RUNS * 2 },
  );
});

/** Request targets as an attacker writes them on the wire, which fetch would normalise away. */
const rawTarget = fc.oneof(
  fc.constantFrom(
    "http://evil.example/waitlist",
    "https://evil.example:443/admin/waitlist",
    "http://127.0.0.1/",
    "evil.example:443",
    "127.0.0.1:80",
    "*",
    "//user:pass@evil.example/waitlist",
    "//evil.example",
    "///waitlist",
    "/\\evil.example/login",
    "\\waitlist",
    "/waitlist\\..\\admin",
    "/%00",
    "/waitlist%00.html",
    "/%C0%AE%C0%AE/%C0%AE%C0%AE/etc/passwd",
    "/%FF%FE",
    "/%E2%82",
    "/?q=%00",
    "/admin/waitlist?q=%C3%28",
  ),
  // Overlong: a path of 4,000 to 8,000 characters (headers stay under the 16 KB limit).
  fc.integer({ min: 4_000, max: 8_000 }).map((n) => `/${"a/".repeat(n / 2)}`),
  hostilePath.map((p) => `/${p}`),
  hostilePath.map((p) => `http://evil.example${p}`),
  hostilePath.map((p) => p.replaceAll("/", "\\")),
  // Raw bytes of invalid UTF-8 in the target itself, not percent-encoded.
  hostilePath.map((p) => `${p}\xc3\x28\xff`),
);

/** One request written byte for byte on a socket; the status line and body that came back. */
function rawRequest(method: string, target: string): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", reject);
    socket.on("close", () => {
      const answer = Buffer.concat(chunks).toString("latin1");
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
      const body = answer.slice(answer.indexOf("\r\n\r\n") + 4);
      resolve({ method, path: JSON.stringify(target).slice(0, 120), status, body });
    });
    socket.end(
      Buffer.from(
        `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: close\r\n\r\n`,
        "latin1",
      ),
    );
  });
}

test("any request target on the wire (absolute, authority, //, backslashes, NUL, overlong, broken UTF-8) is a 4xx or a page, never a 5xx", async () => {
  await fc.assert(
    fc.asyncProperty(rawTarget, fc.constantFrom("GET", "HEAD", "POST"), async (target, method) => {
      const sent = await rawRequest(method, target);
      expect(sent.status, `${method} ${sent.path} got no answer`).toBeGreaterThan(0);
      check(sent);
    }),
    { numRuns: RUNS * 2 },
  );
});

test("a real account's token still works after all that (the server is healthy)", async ({
  newUser,
}) => {
  await signIn(server.url, newUser);
  expect((await send("GET", "/api/health")).status).toBe(200);
});

test("the database holds exactly the acknowledged addresses, nothing from a refused request", async () => {
  // Submissions of its own, so the check has something to compare when it runs alone; with the
  // rest of the group it also covers every submission the tests above made.
  await fc.assert(
    fc.asyncProperty(someFields, async (fields) => {
      const sent = await postJson(fields);
      check(sent);
      record(fields, sent.status);
    }),
    { numRuns: RUNS / 4, examples: [[{ name: "Kept Lead", email: "kept-lead@example.com" }]] },
  );
  expect(acknowledged.size, "some random submissions were valid").toBeGreaterThan(0);
  expect(await server.stop("SIGTERM")).toBe(0);
  const stored = await countsByEmail({ dataDir: server.dataDir });
  expect([...stored.keys()].sort()).toEqual([...acknowledged].sort());
  for (const [email, n] of stored) expect(n, email).toBe(1);
  for (const email of refused) {
    if (!acknowledged.has(email)) expect(stored.has(email), email).toBe(false);
  }
});
