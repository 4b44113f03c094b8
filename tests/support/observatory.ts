/**
 * Runs MDN's HTTP Observatory (@mdn/mdn-http-observatory, the scanner behind
 * developer.mozilla.org/observatory) against a host, in a child process that trusts one extra
 * certificate. The scanner fetches http://host/ and https://host/ on the default ports, follows
 * the redirects, then reads /robots.txt and sends a CORS preflight.
 */
import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

type ObservatoryTest = {
  pass: boolean | null;
  result: string | null;
  scoreModifier: number | null;
  scoreDescription: string | null;
};

export type ObservatoryResult = {
  scan: {
    grade: string;
    score: number;
    statusCode: number;
    testsPassed: number;
    testsFailed: number;
    testsQuantity: number;
    responseHeaders: Record<string, string>;
  };
  tests: Record<string, ObservatoryTest>;
};

const require = createRequire(import.meta.url);

/**
 * The package's install script downloads Chromium's HSTS preload list from GitHub into
 * conf/hsts-preload.json; we install with --ignore-scripts on a closed network, so write an empty
 * list when none is there. The list only changes the grade of preloaded hosts, and localhost is not
 * one (nor is any public domain of ours), so the score is the same as with the full list.
 */
function ensureHstsPreloadList(): void {
  const packageDir = path.dirname(require.resolve("@mdn/mdn-http-observatory/package.json"));
  const file = path.join(packageDir, "conf", "hsts-preload.json");
  if (!existsSync(file)) writeFileSync(file, "{}\n");
}

// The scanner verifies TLS, and on a certificate error retries without verification but marks the
// site unverified (redirection and HSTS then fail). NODE_EXTRA_CA_CERTS is read once, at start-up:
// hence a child process, which trusts our certificate and nothing is switched off.
const SCAN = `
import { scan } from "@mdn/mdn-http-observatory";
const result = await scan(process.argv[1]);
process.stdout.write(JSON.stringify(result));
`;

export async function runObservatory(
  hostname: string,
  options: { trustCertFile: string; timeoutMs?: number },
): Promise<ObservatoryResult> {
  ensureHstsPreloadList();
  const child = spawn(process.execPath, ["--input-type=module", "-e", SCAN, hostname], {
    // The package resolves from the project root, whatever the caller's working directory.
    cwd: path.resolve(import.meta.dirname, "../.."),
    env: { PATH: process.env.PATH ?? "", NODE_EXTRA_CA_CERTS: options.trustCertFile },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  clearTimeout(timer);
  if (code !== 0) throw new Error(`the Observatory scan exited with ${code}:\n${stderr}`);
  return JSON.parse(stdout) as ObservatoryResult;
}

/** One line per test that did not pass or lost points, for an assertion message. */
export function describeShortfalls(result: ObservatoryResult): string {
  const lines = Object.entries(result.tests)
    .filter(([, t]) => !t.pass || (t.scoreModifier ?? 0) < 0)
    .map(([name, t]) => `  ${name}: ${t.result} (${t.scoreModifier ?? 0})`);
  return [
    `Observatory grade ${result.scan.grade}, score ${result.scan.score}; ` +
      `${result.scan.testsFailed} of ${result.scan.testsQuantity} tests failed`,
    ...lines,
  ].join("\n");
}

/** Every test with its result and points, for the report. */
export function describeAll(result: ObservatoryResult): string {
  return Object.entries(result.tests)
    .map(
      ([name, t]) =>
        `${t.pass ? "pass" : "FAIL"} ${name}: ${t.result} (${(t.scoreModifier ?? 0) >= 0 ? "+" : ""}${t.scoreModifier ?? 0})`,
    )
    .join("\n");
}
