/**
 * The ledger of erasures for tests that build a service by hand: keyed with a key of the tests'
 * own, writing to the logger the test reads (or to none).
 */
import { pino } from "pino";
import { createErasureLedger, type ErasureLedger } from "#server/audit/erasure-ledger.ts";

export const TEST_ERASURE_KEY = "a key for the ledger of erasures in tests and long enough";

export function testLedger(
  log: Parameters<typeof createErasureLedger>[0] = pino({ level: "silent" }),
): ErasureLedger {
  return createErasureLedger(log, [TEST_ERASURE_KEY]);
}
