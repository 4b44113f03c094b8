import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { exportTokenOf, signInVerified } from "#tests/support/accounts.ts";
import { expect, test } from "#tests/support/fixtures.ts";
import { runServerExpectingExit, startServer } from "#tests/support/server.ts";
import { countsByEmail, flood, submitToWaitlist } from "#tests/support/waitlist-db.ts";

// These tests start and kill servers of their own; they run one after another.
test.describe.configure({ mode: "serial", timeout: 90_000 });

test("the rate limit answers 429 with Retry-After, per client, and stores nothing it refused", async () => {
  const server = await startServer({ WAITLIST_RATE_LIMIT: "3" });
  try {
    const post = (i: number) =>
      fetch(`${server.url}/api/waitlist`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name: `Limited ${i}`, email: `limited-${i}@example.com` }),
      });
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      const response = await post(i);
      statuses.push(response.status);
      if (response.status === 429) {
        const retryAfter = Number(response.headers.get("retry-after"));
        expect(retryAfter).toBeGreaterThan(0);
        expect(retryAfter).toBeLessThanOrEqual(60);
      }
    }
    expect(statuses).toEqual([202, 202, 202, 429, 429]);

    // The form without JavaScript says the same, and nothing keeps the answer.
    const form = await fetch(`${server.url}/waitlist`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ name: "Limited page", email: "limited-page@example.com" }),
    });
    expect(form.status).toBe(429);
    expect(Number(form.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(form.headers.get("cache-control")).toBe("private, no-store");
  } finally {
    await server.stop();
  }
  const counts = await countsByEmail({ dataDir: server.dataDir });
  expect([...counts.keys()].sort()).toEqual([
    "limited-0@example.com",
    "limited-1@example.com",
    "limited-2@example.com",
  ]);
});

test("600 submissions sent 40 at a time are all stored exactly once", async () => {
  const server = await startServer();
  let result;
  try {
    result = await flood(server.url, { count: 600, concurrency: 40, prefix: "bulk" });
  } finally {
    await server.stop();
  }
  expect(result.acknowledged).toHaveLength(600);
  const counts = await countsByEmail({ dataDir: server.dataDir });
  expect(counts.size).toBe(600);
  expect([...counts.values()].every((n) => n === 1)).toBe(true);
});

test("killed with SIGKILL under load and restarted on the same data: every acknowledged entry is there", async () => {
  const first = await startServer();
  let killed = false;
  const load = flood(first.url, {
    count: 100_000,
    concurrency: 20,
    prefix: "crash",
    stopWhen: () => killed,
  });
  await new Promise((r) => setTimeout(r, 1500));
  killed = true;
  await first.stop("SIGKILL");
  const { acknowledged } = await load;
  expect(acknowledged.length).toBeGreaterThan(50);

  // The same folder, a new process: the dead owner's lock is taken over.
  const second = await startServer({}, { dataDir: first.dataDir });
  const health = await fetch(`${second.url}/api/health`);
  expect(health.status).toBe(200);
  await second.stop();
  const counts = await countsByEmail({ dataDir: first.dataDir });
  const missing = acknowledged.filter((email) => counts.get(email) !== 1);
  expect(missing).toEqual([]);
});

test("a second process on the same data folder is refused with a clear message", async () => {
  const owner = await startServer();
  try {
    const { code, output } = await runServerExpectingExit({
      DATA_DIR: owner.dataDir,
      SITE_URL: "http://127.0.0.1:1",
    });
    expect(code).toBe(1);
    expect(output).toContain("is already using the embedded database");
    expect(output).toContain("DATABASE_URL");
  } finally {
    await owner.stop();
  }
});

test("with forwarding on, each new entry reaches the collector once, retried after a failure", async ({
  newUser: admin,
}) => {
  const received: URLSearchParams[] = [];
  let failuresLeft = 1;
  const collector = createServer((req: IncomingMessage, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      if (failuresLeft > 0) {
        failuresLeft--;
        res.writeHead(500).end("try later");
        return;
      }
      received.push(new URLSearchParams(body));
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
  const port = (collector.address() as AddressInfo).port;
  const server = await startServer({
    WAITLIST_FORWARD_URL: `http://127.0.0.1:${port}/formResponse`,
    WAITLIST_FORWARD_FIELDS: "entry.1,entry.2,entry.3,entry.4",
    ADMIN_EMAILS: admin.email,
  });
  try {
    const post = (data: object) => submitToWaitlist(server.url, data);
    expect(
      (
        await post({
          name: "Forward One",
          email: "fwd-1@example.com",
          company: "Acme CPA",
          message: "Tie-outs",
        })
      ).status,
    ).toBe(202);
    expect((await post({ name: "Forward Two", email: "fwd-2@example.com" })).status).toBe(202);
    expect((await post({ name: "Forward Two", email: "FWD-2@example.com" })).status).toBe(202);

    await expect.poll(() => received.length, { timeout: 20_000 }).toBe(2);
    await new Promise((r) => setTimeout(r, 6000));
    expect(received).toHaveLength(2);
    const one = received.find((p) => p.get("entry.2") === "fwd-1@example.com");
    expect(Object.fromEntries(one!)).toEqual({
      "entry.1": "Forward One",
      "entry.2": "fwd-1@example.com",
      "entry.3": "Acme CPA",
      "entry.4": "Tie-outs",
    });

    const csv = await (
      await fetch(`${server.url}/api/admin/waitlist.csv`, {
        headers: {
          Authorization: `Bearer ${await exportTokenOf(server, (await signInVerified(server, admin)).cookie)}`,
        },
      })
    ).text();
    // Every cell is quoted (server/waitlist/csv.ts): a row's cells, read by their quotes.
    const cells = (line: string) =>
      [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1]!.replaceAll('""', '"'));
    const [header, ...lines] = csv.replace(/^\uFEFF/, "").split("\r\n");
    const forwarded = cells(header!).indexOf("Forwarded");
    const rows = lines.filter((l) => l.includes("fwd-"));
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(cells(row)[forwarded]).toBe("sent");
  } finally {
    await server.stop();
    collector.close();
  }
});
