/**
 * A person's qualifying answers behind their link (decision 043): read to fill the form, saved by
 * its POST. Only an entry that confirmed its address and is still on its way in (confirmed or
 * invited) has questions to answer; any other link, however it came to be, is gone.
 */
import type { KeyObject } from "node:crypto";
import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "#db/client.ts";
import { waitlistEntries } from "#db/schema.ts";
import type { Answers } from "#src/content/qualifying-questions.ts";
import { readStoredAnswers } from "#src/features/waitlist/answers.ts";
import type { AnswersLink } from "#src/features/waitlist/types.ts";
import { maskEmail } from "#server/http/log-safety.ts";
import {
  answersToken,
  readAnswersToken,
  verifyAnswersToken,
} from "#server/waitlist/answers-link.ts";

export type AnswersService = {
  /** A new link's token for this entry, as of now. */
  tokenFor: (entry: { id: number; email: string }) => string;
  /** Whose answers a token opens, while it works; null otherwise. Reads only. */
  check: (token: unknown) => Promise<AnswersLink | null>;
  /** Saves the answers behind a working link, in place of the ones before. */
  save: (token: unknown, answers: Answers) => Promise<"saved" | "gone">;
};

/** Entries that may answer: a confirmed address, not yet joined, declined or erased. */
const MAY_ANSWER = and(
  isNotNull(waitlistEntries.confirmedAt),
  inArray(waitlistEntries.state, ["confirmed", "invited"]),
);

export function createAnswersService({
  db,
  keys,
  log,
}: {
  db: Db;
  /** The link keys, newest first: links are made with the first and read with any. */
  keys: readonly KeyObject[];
  log: FastifyBaseLogger;
}): AnswersService {
  const [newest] = keys;
  if (!newest) throw new Error("the answers link needs a key");

  /** The entry a token opens, when it works: its id, address and answers. */
  async function entryOf(token: unknown) {
    const read = readAnswersToken(token);
    if (!read) return null;
    const [row] = await db
      .select({
        id: waitlistEntries.id,
        email: waitlistEntries.email,
        answers: waitlistEntries.answers,
      })
      .from(waitlistEntries)
      .where(and(eq(waitlistEntries.id, read.entryId), MAY_ANSWER));
    return row && verifyAnswersToken(keys, read, row.email) ? row : null;
  }

  return {
    tokenFor: (entry) => answersToken(newest, entry),

    async check(token) {
      const row = await entryOf(token);
      if (!row) return null;
      return {
        maskedEmail: maskEmail(row.email) ?? "***",
        answers: readStoredAnswers(row.answers),
      };
    },

    async save(token, answers) {
      const row = await entryOf(token);
      if (!row) return "gone";
      // The same conditions again in the write: an entry that joined or left in between keeps
      // what it had.
      const saved = await db
        .update(waitlistEntries)
        .set({ answers, answeredAt: sql`now()` })
        .where(
          and(eq(waitlistEntries.id, row.id), eq(waitlistEntries.email, row.email), MAY_ANSWER),
        )
        .returning({ id: waitlistEntries.id });
      log.info(
        { event: "waitlist.answers_saved", entryId: row.id, saved: saved.length > 0 },
        saved.length > 0 ? "qualifying answers saved" : "qualifying answers link no longer works",
      );
      return saved.length > 0 ? "saved" : "gone";
    },
  };
}
