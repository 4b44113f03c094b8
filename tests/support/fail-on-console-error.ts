import { afterEach, vi } from "vitest";

// A stray console.error in a unit test means something went wrong that no assertion caught.
let errors: unknown[][] = [];
vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
  errors.push(args);
});
afterEach(() => {
  const seen = errors;
  errors = [];
  if (seen.length > 0) throw new Error(`console.error was called: ${JSON.stringify(seen)}`);
});
