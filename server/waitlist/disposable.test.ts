import { expect, test } from "vitest";
import { isDisposableEmail } from "#server/waitlist/disposable.ts";

test("throwaway domains and their subdomains are recognised; work and free-mail domains are not", () => {
  expect(isDisposableEmail("someone@mailinator.com")).toBe(true);
  expect(isDisposableEmail("someone@MAILINATOR.COM")).toBe(true);
  expect(isDisposableEmail("someone@eu.mailinator.com")).toBe(true);
  expect(isDisposableEmail("jane@example-cpa.com")).toBe(false);
  expect(isDisposableEmail("jane@gmail.com")).toBe(false);
});
