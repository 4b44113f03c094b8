// The build's check of the sub-processor list (src/content/subprocessors.ts): the DPA promises
// 30 days' notice of a new sub-processor, so a change whose effective date is less than 30 days
// after its publication, or dated after today, stops the build with the reason. `npm test` runs
// the same rule (src/content/subprocessors.test.ts). Run alone: `node scripts/check-subprocessors.mjs`.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");

/** @returns {Promise<string[]>} every problem with the list and its changes, as of today (UTC) */
export async function subprocessorListProblems() {
  // The content is TypeScript: bundled in memory, then imported, so any Node can run the check.
  const bundled = await build({
    entryPoints: [path.join(root, "src/content/subprocessors.ts")],
    bundle: true,
    write: false,
    format: "esm",
    platform: "node",
    logLevel: "silent",
  });
  const code = bundled.outputFiles[0].text;
  const content = await import(
    `data:text/javascript;base64,${Buffer.from(code).toString("base64")}`
  );
  const today = new Date().toISOString().slice(0, 10);
  return content.subprocessorProblems(content.SUBPROCESSORS, content.SUBPROCESSOR_CHANGES, today);
}

/** Exits the process with status 1 and the problems when there are any. */
export async function checkSubprocessorList() {
  const problems = await subprocessorListProblems();
  if (problems.length === 0) return;
  console.error(
    `The sub-processor list in src/content/subprocessors.ts cannot be published:\n${problems
      .map((problem) => `- ${problem}`)
      .join("\n")}`,
  );
  process.exit(1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await checkSubprocessorList();
