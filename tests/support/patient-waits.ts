import { vi } from "vitest";

/**
 * `vi.waitFor` gives up after one second unless told otherwise. These tests wait on real servers,
 * threads and databases, and run a file on every core (vitest.config.ts): on a busy machine one
 * second is not long enough for a mail to reach the test's SMTP server. So every wait that names
 * no timeout gets ten seconds; a wait that names one keeps it. Set here once, so no new wait has to
 * remember it (decision 064).
 */
const PATIENT_TIMEOUT_MS = 10_000;

const waitFor = vi.waitFor.bind(vi);
vi.waitFor = (callback, options) =>
  waitFor(
    callback,
    typeof options === "number" ? options : { timeout: PATIENT_TIMEOUT_MS, ...options },
  );
