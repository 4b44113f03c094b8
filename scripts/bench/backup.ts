/**
 * What a backup of the embedded database costs (docs/decisions/027), run by hand after
 * `npm run build`: `npx tsx scripts/bench/backup.ts [entries]` (100,000 by default).
 * 1. Fills a new DATA_DIR through the site's waitlist API, as visitors would: each entry with its
 *    confirmation mail in the outbox and its two link tokens (the site's server without a relay,
 *    scripts/bench/mail-server.ts, so the mail waits in the outbox).
 * 2. `npm run backup` while the site runs, with one visitor sending waitlist entries and one
 *    loading the home page meanwhile: the backup's time and size, and the longest each waited.
 * 3. `npm run backup` with the site stopped, to a plain file and to a .gz.
 * 4. `npm run restore` of the plain file into an empty DATA_DIR.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PORT = 3270;
const BASE = `http://127.0.0.1:${PORT}`;
const ENTRIES = Number(process.argv[2] ?? 100_000);
const work = mkdtempSync(path.join(tmpdir(), "tieout-backup-bench-"));
const dataDir = path.join(work, "data");

function startSite(): ChildProcess {
  return spawn(
    process.execPath,
    ["--import", "tsx", path.join(ROOT, "scripts/bench/mail-server.ts")],
    {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "inherit"],
      env: {
        ...process.env,
        NODE_ENV: "production",
        LOG_LEVEL: "warn",
        PORT: String(PORT),
        HOST: "127.0.0.1",
        SITE_URL: BASE,
        DATA_DIR: dataDir,
        WAITLIST_RATE_LIMIT: "0",
        FIREBASE_API_KEY: "",
        FIREBASE_PROJECT_ID: "demo-tieout-bench",
        FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9299",
        SMTP_URL: "",
      },
    },
  );
}

async function waitForSite() {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${BASE}/api/health`)).ok) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the site did not start");
}

async function stop(site: ChildProcess) {
  const exited = new Promise((resolve) => site.once("exit", resolve));
  site.kill("SIGTERM");
  await exited;
}

/** Runs `npm run backup` or `npm run restore` as the operator would; its wall-clock time. */
async function run(script: "backup" | "restore", file: string, env: Record<string, string>) {
  const started = performance.now();
  // The bench's site erased nothing after its backup.
  const args = script === "restore" ? [file, "--no-erasures"] : [file];
  const child = spawn(process.execPath, ["--import", "tsx", `scripts/${script}.ts`, ...args], {
    cwd: ROOT,
    env: { ...process.env, FIREBASE_PROJECT_ID: "demo-tieout-bench", ...env },
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  const ms = performance.now() - started;
  if (code !== 0) throw new Error(`${script} failed:\n${output}`);
  return { ms, output };
}

const post = (i: number) =>
  fetch(`${BASE}/api/waitlist`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name: `During ${i}`, email: `during-${i}@example.com` }),
  });

/** One visitor doing `request` back to back until `stop`; the longest answer, in ms. */
async function longestWhile(request: (i: number) => Promise<Response>, stop: () => boolean) {
  let longest = 0;
  for (let i = 0; !stop(); i++) {
    const started = performance.now();
    const response = await request(i);
    await response.arrayBuffer();
    longest = Math.max(longest, performance.now() - started);
  }
  return longest;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

let site: ChildProcess | undefined;
try {
  if (
    await fetch(`${BASE}/api/health`).then(
      () => true,
      () => false,
    )
  )
    throw new Error(`port ${PORT} is in use: stop what listens there first`);
  site = startSite();
  await waitForSite();
  console.log(`Filling ${ENTRIES.toLocaleString("en-US")} waitlist entries through the API…`);
  let counter = 0;
  const fill = await autocannon({
    url: `${BASE}/api/waitlist`,
    connections: 40,
    amount: ENTRIES,
    requests: [
      {
        method: "POST",
        setupRequest: (request) => {
          const i = counter++;
          return {
            ...request,
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              name: `Lead Number ${i}`,
              email: `lead-${i}@example-firm-${i % 997}.com`,
              company: `Example Accounting ${i % 997} LLP`,
              message: "We prepare about 300 returns a season and would like to try Tieout.",
              utm_source: ["newsletter", "linkedin", "google"][i % 3],
              utm_medium: "email",
              utm_campaign: "spring-beta",
              referrer: "https://www.example.com/blog/ai-for-tax-preparers",
              landing_path: "/",
            }),
          };
        },
      },
    ],
  });
  if (fill["2xx"] !== ENTRIES) throw new Error(`only ${fill["2xx"]} of ${ENTRIES} were accepted`);

  const live = path.join(work, "live.sql");
  let done = false;
  const visitors = Promise.all([
    longestWhile(post, () => done),
    longestWhile(
      () => fetch(`${BASE}/`),
      () => done,
    ),
  ]);
  const running = await run("backup", live, { DATA_DIR: dataDir });
  done = true;
  const [submitWait, pageWait] = await visitors;
  await stop(site);
  site = undefined;

  const plain = path.join(work, "stopped.sql");
  const gz = path.join(work, "stopped.sql.gz");
  const stopped = await run("backup", plain, { DATA_DIR: dataDir });
  const stoppedGz = await run("backup", gz, { DATA_DIR: dataDir });
  const restored = await run("restore", plain, { DATA_DIR: path.join(work, "restored") });

  console.log(running.output.trim());
  console.log(
    [
      "",
      `| what (${ENTRIES.toLocaleString("en-US")} waitlist entries, each with its outbox mail and two tokens) | figure |`,
      "| --- | --- |",
      `| npm run backup, site running (through the site) | ${s(running.ms)}, ${mb(statSync(live).size)} |`,
      `| meanwhile, the longest a waitlist submission / GET / waited | ${Math.round(submitWait)} ms / ${Math.round(pageWait)} ms |`,
      `| npm run backup, site stopped, plain SQL | ${s(stopped.ms)}, ${mb(statSync(plain).size)} |`,
      `| npm run backup, site stopped, .gz | ${s(stoppedGz.ms)}, ${mb(statSync(gz).size)} |`,
      `| npm run restore into an empty DATA_DIR | ${s(restored.ms)} |`,
    ].join("\n"),
  );
} finally {
  if (site) await stop(site);
  rmSync(work, { recursive: true, force: true });
}
