/**
 * Imports at size, for `npm run bench` (issue 37, part 5): a 10,000-row sheet with 20,000 entries
 * already on the list, in an embedded database; how long its preview takes (median of 3), and its
 * import, confirmed before (no mail) and unconfirmed (a confirmation mail each). The goal is under
 * 10 s for each. The mails render as the site renders them, with React in production mode: run
 * alone as `NODE_ENV=production npx tsx scripts/bench/import.ts` (`npm run bench` sets it).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { openDatabase } from "#db/client.ts";
import { UNLOGGED } from "#server/audit/mail-stop-ledger.ts";
import { parseEnv } from "#server/env.ts";
import { createSuppressions, suppressionKeys } from "#server/mail/suppressions.ts";
import { createImports } from "#server/waitlist/import/imports.ts";

const ROWS = 10_000;
const ON_THE_LIST = 20_000;
export const IMPORT_TARGET_MS = 10_000;

export type ImportFigures = {
  rows: number;
  bytes: number;
  previewMs: number;
  confirmedMs: number;
  unconfirmedMs: number;
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** A form service's sheet: a tenth of its rows already on the list, a few repeated or broken. */
function sheet(tag: string): Uint8Array {
  const lines = ["Timestamp,Email Address,Your name,Firm,Use case"];
  for (let i = 0; i < ROWS; i++) {
    const email =
      i % 10 === 0
        ? `listed-${i}@example-cpa.com`
        : i % 97 === 0
          ? "not an address"
          : `${tag}-${i}@example-cpa.com`;
    lines.push(
      `${1 + (i % 12)}/${1 + (i % 28)}/2026 ${i % 24}:${String(i % 60).padStart(2, "0")}:00,${email},Lead ${i},"Firm ${i % 500}, LLP","Returns, workpapers and tie-outs for ${i % 40} clients"`,
    );
  }
  return new TextEncoder().encode(lines.join("\r\n"));
}

async function once(basis: "confirmed" | "unconfirmed") {
  const dataDir = mkdtempSync(path.join(tmpdir(), "tieout-import-bench-"));
  const database = await openDatabase({ dataDir, databaseUrl: undefined });
  try {
    const { db } = database;
    await db.execute(sql`
      INSERT INTO waitlist_entries (name, email)
      SELECT 'Listed ' || i, 'listed-' || i || '@example-cpa.com' FROM generate_series(0, ${ON_THE_LIST - 1}) AS i`);
    await db.execute(sql`ANALYZE`);
    const imports = createImports({
      db,
      env: parseEnv({}),
      suppressions: createSuppressions({
        db,
        keys: suppressionKeys(["a key for the import bench, 32 characters or more"]),
        ledger: UNLOGGED,
      }),
      onEnqueued: () => {},
    });
    const actor = { adminEmail: "ops@example.com", clientAddress: "127.0.0.1" };
    const bytes = sheet(basis);
    const staged = await imports.stage({ name: "bench.csv", bytes }, actor);
    if (!staged.ok) throw new Error(staged.message);
    const previews: number[] = [];
    let preview;
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      preview = await imports.preview(staged.id, null);
      previews.push(performance.now() - t0);
    }
    if (!preview) throw new Error("the staged sheet is gone");
    const t0 = performance.now();
    const done = await imports.run(
      staged.id,
      preview.mapping,
      basis,
      "They confirmed through the form service's double opt-in.",
      preview.plan.counts,
      actor,
    );
    const importMs = performance.now() - t0;
    if (!done.ok) throw new Error(done.message);
    return { bytes: bytes.length, previewMs: median(previews), importMs, created: done.created };
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function benchImport(): Promise<ImportFigures> {
  const confirmed = await once("confirmed");
  const unconfirmed = await once("unconfirmed");
  return {
    rows: ROWS,
    bytes: confirmed.bytes,
    previewMs: Math.max(confirmed.previewMs, unconfirmed.previewMs),
    confirmedMs: confirmed.importMs,
    unconfirmedMs: unconfirmed.importMs,
  };
}

if (import.meta.url === `file://${process.argv[1] ?? ""}`) {
  if (process.env.NODE_ENV !== "production") {
    console.error(
      "Run it as the site runs: NODE_ENV=production npx tsx scripts/bench/import.ts (React renders the mails several times slower in development mode).",
    );
    process.exit(2);
  }
  const figures = await benchImport();
  console.log(
    `Import of ${figures.rows.toLocaleString("en-US")} rows (${(figures.bytes / 1024 / 1024).toFixed(2)} MB): preview ${Math.round(figures.previewMs)} ms, import confirmed ${Math.round(figures.confirmedMs)} ms, unconfirmed (a mail each) ${Math.round(figures.unconfirmedMs)} ms; goal under ${IMPORT_TARGET_MS / 1000} s each`,
  );
}
