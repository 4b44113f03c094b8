import { expect, test } from "vitest";
import { turnMsFor } from "#server/broadcasts/pump.ts";

test("a turn comes often enough to hand over about ten mails, between five times a second and every two seconds", () => {
  expect(turnMsFor(3_000)).toBe(200);
  expect(turnMsFor(30_000)).toBe(200);
  expect(turnMsFor(1_200)).toBe(500);
  expect(turnMsFor(600)).toBe(1_000);
  expect(turnMsFor(300)).toBe(2_000);
  expect(turnMsFor(1)).toBe(2_000);
});
