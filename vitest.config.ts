import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "src/**/*.test.{ts,tsx}",
      "server/**/*.test.ts",
      "db/**/*.test.ts",
      "scripts/**/*.test.ts",
    ],
    setupFiles: ["./tests/support/fail-on-console-error.ts"],
  },
});
