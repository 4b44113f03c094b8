/**
 * The page cache under a hostile client (decision 010). Shared pages hold nothing a
 * request sent, other spellings of a path never reach the cache, and every response says whether a
 * shared cache may keep it. Each test runs alone and in any order.
 */
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { ALL_PAGES } from "#tests/support/pages.ts";
import {
  adminExportToken,
  createVerifiedAccount,
  deleteAccount,
  idTokenFor,
  MAIN_SERVER,
} from "#tests/support/accounts.ts";
import { uniqueEmail } from "#tests/support/emulator.ts";
import { E2E_PORT } from "#tests/support/e2e-env.ts";
import { expect, test } from "#tests/support/fixtures.ts";
import { startServer } from "#tests/support/server.ts";

/** A raw GET, so the request target is sent exactly as written (no URL normalisation). */
function rawGet(
  target: string,
  headers: Record<string, string> = {},
): Promise<{
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: "127.0.0.1", port: E2E_PORT, path: target, method: "GET", headers },
      (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

test("other spellings of a page's path are sent to the canonical one, keeping the query", async () => {
  for (const [target, location] of [
    ["/WAITLIST", "/waitlist"],
    ["/waitlist/", "/waitlist"],
    ["//waitlist", "/waitlist"],
    ["/Waitlist//?utm_source=x", "/waitlist?utm_source=x"],
    ["/w%61itlist", "/waitlist"],
    ["/Terms-Of-Service", "/terms-of-service"],
  ] as const) {
    const answer = await rawGet(target);
    expect(answer.status, target).toBe(301);
    expect(answer.headers.location, target).toBe(location);
  }
  // A path that names no page is the not-found page, never a redirect to somewhere else.
  for (const target of ["//evil.example/waitlist", "/waitlist%00", "/%2F%2Fevil.example"]) {
    const answer = await rawGet(target);
    expect(answer.status, target).toBe(404);
    expect(answer.headers.location, target).toBeUndefined();
  }
});

test("what one request sends never reaches the page another visitor gets", async () => {
  const canary = `attacker-${Date.now()}`;
  const before = await rawGet("/waitlist");
  // Every way a request could leave a mark: the query, the Referer, odd spellings, a host.
  for (let i = 0; i < 150; i++) {
    await rawGet(`/waitlist?utm_source=${canary}&n=${i}`, {
      referer: `https://${canary}.example/${i}`,
    });
    await rawGet(`/WaitList${"/".repeat(i % 3)}?r=${i}`, { referer: `https://${canary}.example/` });
    await rawGet(`/no-such-page-${i}`, { referer: `https://${canary}.example/` });
  }
  const after = await rawGet("/waitlist", { referer: `https://${canary}.example/` });
  expect(after.status).toBe(200);
  expect(after.body).not.toContain(canary);
  // Still the very page the server rendered first: nothing was evicted or replaced.
  expect(after.headers.etag).toBe(before.headers.etag);
  // The not-found page is one page for every unknown path: it names none of them.
  const notFound = await rawGet(`/${canary}/<b>x</b>`);
  expect(notFound.status).toBe(404);
  expect(notFound.body).not.toContain(canary);
  const withQuery = await rawGet(`/waitlist?utm_source=${canary}`);
  expect(withQuery.body).not.toContain(canary);
  expect(withQuery.headers.etag).toBe(before.headers.etag);
});

test("a lead keeps its own campaign, taken from its own visit, JavaScript on or off", async ({
  page,
  browser,
  request,
}) => {
  const email = uniqueEmail("utm-js");
  await page.goto("/?utm_source=newsletter&utm_campaign=fall");
  await page.getByRole("main").getByRole("link", { name: "See it in action" }).click();
  await page.getByLabel("Full Name").fill("Campaign Reader");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("main").getByRole("button", { name: "Join Waitlist" }).click();
  await expect(page.getByRole("heading", { name: "You're on the list!" })).toBeVisible();

  const noScript = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noScript.newPage();
  const plainEmail = uniqueEmail("utm-nojs");
  await plain.goto("/waitlist?utm_source=partner");
  await plain.getByLabel("Full Name").fill("Plain Reader");
  await plain.getByLabel("Email").fill(plainEmail);
  await plain.getByRole("main").getByRole("button", { name: "Join Waitlist" }).click();
  await expect(plain.getByRole("heading", { name: "You're on the list!" })).toBeVisible();
  await noScript.close();

  const csv = await (
    await request.get("/api/admin/waitlist.csv", {
      headers: { Authorization: `Bearer ${await adminExportToken(MAIN_SERVER)}` },
    })
  ).text();
  const row = (address: string) => csv.split("\n").find((line) => line.includes(address)) ?? "";
  expect(row(email)).toContain("newsletter");
  expect(row(plainEmail)).toContain("partner");
});

test("every response says whether a shared cache may keep it: private for a signed-in visitor, public otherwise", async ({
  request,
  signedInUser,
}) => {
  const paths = [
    ...ALL_PAGES.map((p) => p.path),
    "/no-such-page",
    "/admin",
    "/admin/waitlist",
    "/admin/deliveries",
    "/admin/activity",
  ];
  // The home page's data is at /_.data (React Router 8); /_root.data, where it was, stays on the list.
  const dataPaths = ["/_.data", "/_root.data", "/waitlist.data", "/login.data"];
  for (const path of [...paths, ...dataPaths]) {
    const anonymous = await request.get(path, { maxRedirects: 0 });
    const cacheControl = anonymous.headers()["cache-control"] ?? "";
    expect(cacheControl, `${path} signed out`).toMatch(/public|no-store/);
    if (cacheControl.includes("public")) expect(anonymous.headers().vary, path).toContain("Cookie");
  }
  for (const path of [...paths, ...dataPaths]) {
    const signedIn = await request.get(path, {
      headers: { Cookie: signedInUser.cookie },
      maxRedirects: 0,
    });
    expect(signedIn.headers()["cache-control"], `${path} signed in`).toBe("private, no-store");
  }
});

/** Sends raw bytes and returns everything the server answers before it closes. */
function rawExchange(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(E2E_PORT, "127.0.0.1", () => socket.write(bytes));
    let answer = "";
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString()));
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
    socket.setTimeout(5_000, () => socket.destroy(new Error("no answer")));
  });
}

test("a request too broken to route gets a short plain answer with the security headers, echoing nothing", async () => {
  const canary = `canary${Date.now()}`;
  const broken = [
    `GET / HTTP/1.1\r\nHost: localhost\r\nX-${canary} ${canary}\r\n\r\n`,
    `GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: ${canary}${"a".repeat(20_000)}\r\n\r\n`,
  ];
  for (const bytes of broken) {
    const answer = await rawExchange(bytes);
    const [head = "", body = ""] = answer.split("\r\n\r\n");
    expect(head).toMatch(/^HTTP\/1\.1 (400|431) /);
    expect(head).toMatch(/content-type: text\/plain; charset=utf-8/i);
    expect(head).toMatch(/x-content-type-options: nosniff/i);
    expect(head).toMatch(/content-security-policy: default-src 'none'/i);
    expect(answer).not.toContain(canary);
    expect(body).not.toContain("{");
  }
});

test("one ID token replayed makes at most 10 live sessions, the oldest ending first, and sign-ins are rate limited per account, refused tokens per client", async ({
  newUser,
}) => {
  const token = await idTokenFor(newUser);
  // Two servers of its own, started side by side: more than the default 30 s on a busy machine.
  test.setTimeout(90_000);
  const [unlimited, limited] = await Promise.all([
    startServer(),
    startServer({ SESSION_RATE_LIMIT: "5" }),
  ]);
  try {
    const cookies: string[] = [];
    for (let i = 0; i < 15; i++) {
      const answer = await fetch(`${unlimited.url}/api/session`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(answer.status).toBe(200);
      cookies.push((answer.headers.get("set-cookie") ?? "").split(";")[0]!);
    }
    // A page for a live session is private; for an ended one it is the public page.
    const live = async (cookie: string) =>
      (await fetch(`${unlimited.url}/contact`, { headers: { cookie } })).headers.get(
        "cache-control",
      ) === "private, no-store";
    const states = await Promise.all(cookies.map(live));
    expect(states).toEqual([...Array<boolean>(5).fill(false), ...Array<boolean>(10).fill(true)]);

    const signIns = async (bearer: string, times: number) => {
      const statuses: number[] = [];
      for (let i = 0; i < times; i++) {
        const answer = await fetch(`${limited.url}/api/session`, {
          method: "POST",
          headers: { Authorization: `Bearer ${bearer}` },
        });
        statuses.push(answer.status);
        if (answer.status === 429)
          expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
      }
      return statuses;
    };
    // Someone at the same address sends tokens that do not verify, until they are held up...
    const rubbish = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJub2JvZHkifQ.not-a-signature";
    expect(await signIns(rubbish, 6)).toEqual([401, 401, 401, 401, 401, 429]);
    // ...and a member there still signs in: a verified sign-in counts against its account only.
    expect(await signIns(token, 7)).toEqual([200, 200, 200, 200, 200, 429, 429]);
    // Another member at the same address is not held up by the first one's window.
    const colleague = await createVerifiedAccount("colleague");
    try {
      expect(await signIns(await idTokenFor(colleague), 1)).toEqual([200]);
    } finally {
      await deleteAccount(colleague);
    }
  } finally {
    await unlimited.stop();
    await limited.stop();
  }
});
