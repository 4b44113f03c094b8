/**
 * The qualifying answers behind their link (decision 043), on a real database: the link the
 * confirmation gives, what it opens and saves, and what it never opens.
 */
import { sql } from "drizzle-orm";
import { pino } from "pino";
import { describe, expect, test } from "vitest";
import { queryRows } from "#db/client.ts";
import { parseEnv } from "#server/env.ts";
import {
  ANSWERS_LINK_DAYS,
  answersLinkKey,
  answersToken,
  readAnswersToken,
  verifyAnswersToken,
} from "#server/waitlist/answers-link.ts";
import { createWaitlistService } from "#server/waitlist/service.ts";
import { ANY_ENTRY } from "#src/features/waitlist/entry-filter.ts";
import { databaseForThisFile } from "#tests/support/database.ts";
import { testAnswers, testLedger, TEST_ERASURE_KEY } from "#tests/support/erasure-ledger.ts";

const database = databaseForThisFile();
const meta = { clientKey: "answers", requestId: "r1" };
const DAY_MS = 24 * 60 * 60 * 1000;

describe("the link's token", () => {
  const key = answersLinkKey("one secret");
  const entry = { id: 42, email: "Ann@Example.com" };

  test("opens its own entry's address, in any case, under any of the keys given", () => {
    const read = readAnswersToken(answersToken(key, entry))!;
    expect(read.entryId).toBe(42);
    expect(verifyAnswersToken([key], read, "ann@example.com")).toBe(true);
    expect(verifyAnswersToken([answersLinkKey("newer secret"), key], read, "ANN@example.com")).toBe(
      true,
    );
  });

  test("opens nothing for another address, under another key, or once it has expired", () => {
    const now = Date.UTC(2026, 10, 27, 12);
    const token = answersToken(key, entry, now);
    const read = readAnswersToken(token, now)!;
    expect(verifyAnswersToken([key], read, "someone@example.com")).toBe(false);
    expect(verifyAnswersToken([answersLinkKey("another secret")], read, "ann@example.com")).toBe(
      false,
    );
    expect(readAnswersToken(token, now + (ANSWERS_LINK_DAYS - 1) * DAY_MS)).not.toBeNull();
    expect(readAnswersToken(token, now + (ANSWERS_LINK_DAYS + 1) * DAY_MS)).toBeNull();
  });

  test("a token spelled any other way is no token", () => {
    const token = answersToken(key, entry);
    const [id, day, mac] = token.split(".");
    for (const odd of [
      `0${id}.${day}.${mac}`,
      `${id}.0${day}.${mac}`,
      `${id}.${day}.${mac!.toUpperCase()}`,
      `${id}.${day}.${mac}x`,
      `${token}\u0000`,
      "",
      undefined,
      ["a"],
    ])
      expect(readAnswersToken(odd)).toBeNull();
  });
});

describe("the questions after confirming", () => {
  const env = parseEnv({ WAITLIST_RATE_LIMIT: "0", SITE_URL: "http://localhost:3000" });
  const waitlist = () =>
    createWaitlistService({
      db: database().db,
      env,
      log: pino({ level: "silent" }),
      ledger: testLedger(),
      answers: testAnswers(database().db),
    });

  /** Joins and confirms `email`, as its owner would; the confirmation's outcome. */
  async function join(email: string) {
    const service = waitlist();
    expect((await service.submit({ name: "Ann", email }, meta)).kind).toBe("created");
    const [row] = await queryRows<{ payload: { text: string } }>(
      database().db,
      sql`SELECT o.payload FROM outbox o JOIN waitlist_entries w ON o.key LIKE 'waitlist-%:' || w.id
          WHERE lower(w.email) = ${email} AND o.channel = 'email'`,
    );
    const [, token] = /\/waitlist\/confirm\?token=([\w-]+)/.exec(row!.payload.text) ?? [];
    return service.useLink("confirm", token!, meta);
  }

  const answersOf = async (email: string) =>
    (
      await queryRows<{ answers: unknown; answered: boolean }>(
        database().db,
        sql`SELECT answers, answered_at IS NOT NULL AS answered FROM waitlist_entries
            WHERE lower(email) = ${email}`,
      )
    )[0];

  test("confirming gives the link; it shows the answers so far and saves new ones in their place", async () => {
    const confirmed = await join("ann@firm.example");
    expect(confirmed.kind).toBe("confirmed");
    const token = (confirmed as { answersToken: string }).answersToken;
    expect(readAnswersToken(token)).not.toBeNull();
    const service = waitlist();

    expect(await service.checkAnswers(token)).toEqual({
      maskedEmail: "a***@firm.example",
      answers: {},
    });
    expect(await answersOf("ann@firm.example")).toEqual({ answers: {}, answered: false });

    expect(await service.saveAnswers(token, { firmSize: "2-5", software: ["drake"] })).toBe(
      "saved",
    );
    expect(await service.saveAnswers(token, { role: "owner" })).toBe("saved");
    expect(await answersOf("ann@firm.example")).toEqual({
      answers: { role: "owner" },
      answered: true,
    });
    expect((await service.checkAnswers(token))?.answers).toEqual({ role: "owner" });

    // The admin list filters by them: any of a question's choices, every question asked.
    const listed = (answers: Record<string, string[]>) =>
      service
        .list({
          filter: { ...ANY_ENTRY, query: "firm.example", answers },
          position: null,
          limit: 10,
        })
        .then((page) => page.entries.map((e) => e.email));
    expect(await listed({ role: ["manager", "owner"] })).toEqual(["ann@firm.example"]);
    expect(await listed({ role: ["owner"], firmSize: ["solo"] })).toEqual([]);
    expect(await listed({})).toEqual(["ann@firm.example"]);
  });

  test("the link opens nothing once its entry joined, was declined or was erased, nor another entry given its number after a restore", async () => {
    const service = waitlist();
    const token = ((await join("bo@firm.example")) as { answersToken: string }).answersToken;
    const id = readAnswersToken(token)!.entryId;

    for (const state of ["joined", "declined"] as const) {
      await database().db.execute(
        sql`UPDATE waitlist_entries SET state = ${state} WHERE id = ${id}`,
      );
      expect(await service.checkAnswers(token)).toBeNull();
      expect(await service.saveAnswers(token, { role: "owner" })).toBe("gone");
    }
    await database().db.execute(
      sql`UPDATE waitlist_entries SET state = 'confirmed' WHERE id = ${id}`,
    );
    expect(await service.checkAnswers(token)).not.toBeNull();

    // Erased, and the number given to someone else (as a restore of an older backup would).
    await database().db.execute(sql`DELETE FROM waitlist_entries WHERE id = ${id}`);
    expect(await service.checkAnswers(token)).toBeNull();
    await database().db.execute(sql`
      INSERT INTO waitlist_entries (id, name, email, state, confirmed_at)
      OVERRIDING SYSTEM VALUE VALUES (${id}, 'Someone Else', 'else@other.example', 'confirmed', now())`);
    expect(await service.checkAnswers(token)).toBeNull();
    expect(await service.saveAnswers(token, { role: "owner" })).toBe("gone");
    expect(await answersOf("else@other.example")).toEqual({ answers: {}, answered: false });
  });

  test("an entry that never confirmed has no questions, and a link made under another key opens nothing", async () => {
    const service = waitlist();
    expect((await service.submit({ name: "Cy", email: "cy@firm.example" }, meta)).kind).toBe(
      "created",
    );
    const [row] = await queryRows<{ id: number }>(
      database().db,
      sql`SELECT id FROM waitlist_entries WHERE email = 'cy@firm.example'`,
    );
    const ours = answersToken(answersLinkKey(TEST_ERASURE_KEY), {
      id: row!.id,
      email: "cy@firm.example",
    });
    expect(await service.checkAnswers(ours)).toBeNull();
    await database().db.execute(
      sql`UPDATE waitlist_entries SET state = 'confirmed', confirmed_at = now() WHERE id = ${row!.id}`,
    );
    expect(await service.checkAnswers(ours)).not.toBeNull();
    const theirs = answersToken(answersLinkKey("not our secret"), {
      id: row!.id,
      email: "cy@firm.example",
    });
    expect(await service.checkAnswers(theirs)).toBeNull();
  });
});
