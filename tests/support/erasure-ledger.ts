/**
 * The ledger of erasures, and the answers links, for tests that build a service by hand: keyed
 * with a key of the tests' own, writing to the logger the test reads (or to none).
 */
import { pino } from "pino";
import type { Db } from "#db/client.ts";
import { createErasureLedger, type ErasureLedger } from "#server/audit/erasure-ledger.ts";
import { createAnswersService, type AnswersService } from "#server/waitlist/answers.ts";
import { answersLinkKey } from "#server/waitlist/answers-link.ts";

export const TEST_ERASURE_KEY = "a key for the ledger of erasures in tests and long enough";

export function testLedger(
  log: Parameters<typeof createErasureLedger>[0] = pino({ level: "silent" }),
): ErasureLedger {
  return createErasureLedger(log, [TEST_ERASURE_KEY]);
}

/** The qualifying answers behind their links, keyed by the tests' own secret (decision 043). */
export function testAnswers(db: Db): AnswersService {
  return createAnswersService({
    db,
    keys: [answersLinkKey(TEST_ERASURE_KEY)],
    log: pino({ level: "silent" }),
  });
}
