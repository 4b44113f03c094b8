import { sql } from "drizzle-orm";
import { afterEach, describe, expect, test } from "vitest";
import { queryRows, type Db } from "#db/client.ts";
import { UNLOGGED } from "#server/audit/mail-stop-ledger.ts";
import { parseEnv } from "#server/env.ts";
import { createSuppressions, suppressionKeys } from "#server/mail/suppressions.ts";
import { createImports } from "#server/waitlist/import/imports.ts";
import { databaseForThisFile } from "#tests/support/database.ts";

const database = databaseForThisFile();
const actor = { adminEmail: "ops@example.com", clientAddress: "127.0.0.1" };
const SHEET = [
  "Timestamp,Email,Name,Company",
  "3/4/2026 10:11:12,Ann@Example-CPA.com,Ann Ames,Ames CPA",
  "3/5/2026 09:00:00,ann@example-cpa.com,Ann Again,",
  "3/6/2026 09:00:00,old@example-cpa.com,Old Lead,",
  "3/7/2026 09:00:00,bounced@example-cpa.com,Bounced,",
  "3/8/2026 09:00:00,bo@example-cpa.com,Bo Burns,Burns LLP",
  "3/9/2026 09:00:00,not an address,Nobody,",
].join("\r\n");
const MAPPING = { createdAt: 0, email: 1, name: 2, company: 3 };

afterEach(async () => {
  await database().db.execute(
    sql`TRUNCATE waitlist_entries, waitlist_imports, outbox, mail_suppressions, mail_events RESTART IDENTITY CASCADE`,
  );
});

async function setUp(db: Db) {
  const suppressions = createSuppressions({
    db,
    keys: suppressionKeys(["a key for this file's tests, 32 characters or more"]),
    ledger: UNLOGGED,
  });
  await db.execute(
    sql`INSERT INTO waitlist_entries (name, email) VALUES ('Old', 'OLD@example-cpa.com')`,
  );
  await db.transaction((tx) =>
    suppressions.record(tx, {
      outboxId: null,
      address: "bounced@example-cpa.com",
      kind: "hard-bounce",
    }),
  );
  let woken = 0;
  const imports = createImports({
    db,
    env: parseEnv({}),
    suppressions,
    onEnqueued: () => woken++,
  });
  const staged = await imports.stage(
    { name: "old-form.csv", bytes: new TextEncoder().encode(SHEET) },
    actor,
  );
  if (!staged.ok) throw new Error(staged.message);
  return { imports, id: staged.id, woken: () => woken };
}

describe("an import", () => {
  test("previewed, then imported whole as confirmed before, with the evidence and the original dates", async () => {
    const { db } = database();
    const { imports, id } = await setUp(db);
    const preview = await imports.preview(id, MAPPING);
    expect(preview?.fileName).toBe("old-form.csv");
    expect(preview?.plan.counts).toEqual({
      new: 2,
      exists: 1,
      duplicate: 1,
      suppressed: 1,
      invalid: 1,
    });
    expect(
      await imports.run(id, MAPPING, "confirmed", "", preview!.plan.counts, actor),
    ).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^Say how these people confirmed/) as string,
    });

    const done = await imports.run(
      id,
      MAPPING,
      "confirmed",
      "They confirmed through the form service's double opt-in.",
      preview!.plan.counts,
      actor,
    );
    expect(done).toEqual({ ok: true, counts: preview!.plan.counts, created: 2 });
    const entries = await queryRows<{
      email: string;
      state: string;
      created: string;
      import_id: string;
      consents: number;
    }>(
      db,
      sql`SELECT email, state, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS created,
            import_id, (SELECT count(*)::int FROM consent_events c WHERE c.entry_id = e.id AND c.place = 'import') AS consents
          FROM waitlist_entries e WHERE import_id IS NOT NULL ORDER BY email`,
    );
    expect(entries).toEqual([
      {
        email: "Ann@Example-CPA.com",
        state: "confirmed",
        created: "2026-03-04 10:11:12",
        import_id: id,
        consents: 1,
      },
      {
        email: "bo@example-cpa.com",
        state: "confirmed",
        created: "2026-03-08 09:00:00",
        import_id: id,
        consents: 1,
      },
    ]);
    const [kept] = await queryRows<{
      content: unknown;
      basis: string;
      statement: string;
      outcome: string;
    }>(db, sql`SELECT content, basis, statement, outcome FROM waitlist_imports WHERE id = ${id}`);
    expect(kept).toEqual({
      content: null,
      basis: "confirmed",
      statement: "They confirmed through the form service's double opt-in.",
      outcome:
        "old-form.csv: 2 new (confirmed before), 1 already there, 1 merged, 1 suppressed, 1 invalid",
    });
    // No confirmation mail for entries that confirmed before; one Activity row.
    expect(await queryRows(db, sql`SELECT key FROM outbox WHERE channel = 'email'`)).toEqual([]);
    expect(
      await queryRows(db, sql`SELECT outcome FROM admin_audit_log WHERE action = 'import'`),
    ).toEqual([{ outcome: kept!.outcome }]);
    // What it did, as the page it lands on and the list of earlier imports read it.
    const made = {
      id,
      fileName: "old-form.csv",
      basis: "confirmed",
      statement: "They confirmed through the form service's double opt-in.",
      importedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as string,
      importedBy: "ops@example.com",
      counts: preview!.plan.counts,
    };
    expect(await imports.done(id)).toEqual(made);
    expect(await imports.recent()).toEqual([made]);
    expect(await imports.done("0".repeat(32))).toBeNull();
    expect(await imports.done("../etc")).toBeNull();
    // Imported once: the same upload does nothing more.
    expect(
      await imports.run(id, MAPPING, "confirmed", "Again.", preview!.plan.counts, actor),
    ).toMatchObject({
      ok: false,
      message: expect.stringMatching(/no longer there/) as string,
    });
  });

  test("unconfirmed: each new address waits, mailed a confirmation link as a form's entry is", async () => {
    const { db } = database();
    const { imports, id, woken } = await setUp(db);
    const preview = await imports.preview(id, MAPPING);
    const done = await imports.run(id, MAPPING, "unconfirmed", "", preview!.plan.counts, actor);
    expect(done).toMatchObject({ ok: true, created: 2 });
    const mails = await queryRows<{ to: string; subject: string }>(
      db,
      sql`SELECT payload->'to'->0->>'address' AS to, payload->>'subject' AS subject
          FROM outbox WHERE channel = 'email' ORDER BY 1`,
    );
    expect(mails).toEqual([
      { to: "Ann@Example-CPA.com", subject: "Confirm your place on the Tieout waitlist" },
      { to: "bo@example-cpa.com", subject: "Confirm your place on the Tieout waitlist" },
    ]);
    expect(
      await queryRows(
        db,
        sql`SELECT DISTINCT state FROM waitlist_entries WHERE import_id IS NOT NULL`,
      ),
    ).toEqual([{ state: "waiting" }]);
    expect(woken()).toBe(1);
  });

  test("when the list changed since the preview, nothing is imported", async () => {
    const { db } = database();
    const { imports, id } = await setUp(db);
    const preview = await imports.preview(id, MAPPING);
    await db.execute(
      sql`INSERT INTO waitlist_entries (name, email) VALUES ('Bo', 'bo@example-cpa.com')`,
    );
    const refused = await imports.run(
      id,
      MAPPING,
      "confirmed",
      "Double opt-in.",
      preview!.plan.counts,
      actor,
    );
    expect(refused).toMatchObject({
      ok: false,
      message: expect.stringMatching(/The list changed since the preview/) as string,
    });
    expect(
      await queryRows(
        db,
        sql`SELECT count(*)::int AS n FROM waitlist_entries WHERE import_id IS NOT NULL`,
      ),
    ).toEqual([{ n: 0 }]);
    // Nothing was recorded as imported: the upload is still there, to preview again.
    expect(
      await queryRows(
        db,
        sql`SELECT imported_at, content IS NOT NULL AS kept FROM waitlist_imports`,
      ),
    ).toEqual([{ imported_at: null, kept: true }]);
    expect(await imports.done(id)).toBeNull();
    expect(await imports.recent()).toEqual([]);
  });

  test("a refused file is kept as its reason alone, for the administrator who uploaded it", async () => {
    const { db } = database();
    const { imports } = await setUp(db);
    const refused = await imports.stage(
      {
        name: " sums.csv ",
        bytes: new TextEncoder().encode("Email,Name\nann@example-cpa.com,=1+1\n"),
      },
      actor,
    );
    expect(refused).toMatchObject({
      ok: false,
      id: expect.stringMatching(/^[0-9a-f]{32}$/) as string,
    });
    if (refused.ok) return;
    expect(await imports.refusal(refused.id, actor.adminEmail)).toBe(refused.message);
    expect(refused.message).toMatch(/^Row 2, column "Name" \(B2\) starts like a formula/);
    // Another administrator's, an unknown or a malformed id: nothing.
    expect(await imports.refusal(refused.id, "other@example.com")).toBeNull();
    expect(await imports.refusal("0".repeat(32), actor.adminEmail)).toBeNull();
    expect(await imports.refusal("x'; --", actor.adminEmail)).toBeNull();
    // Nothing of the file is kept, and nothing can preview or import it.
    expect(
      await queryRows(
        db,
        sql`SELECT file_name, content IS NULL AS empty FROM waitlist_imports WHERE id = ${refused.id}`,
      ),
    ).toEqual([{ file_name: "sums.csv", empty: true }]);
    expect(await imports.preview(refused.id, null)).toBeNull();
    expect(await imports.done(refused.id)).toBeNull();
  });
});
