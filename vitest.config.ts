import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "src/**/*.test.{ts,tsx}",
      "server/**/*.test.ts",
      "db/**/*.test.ts",
      "scripts/**/*.test.ts",
    ],
    setupFiles: ["./tests/support/fail-on-console-error.ts", "./tests/support/patient-waits.ts"],
    // Vitest's own default leaves one core free, which on a two-core machine is one file at a
    // time; most files here wait on a database, a server or a socket, so every core runs one. A
    // wait gives a busy machine room (tests/support/patient-waits.ts, decision 064).
    maxWorkers: availableParallelism(),
  },
});
