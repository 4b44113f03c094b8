import { expect, test } from "vitest";
import { securityTxt } from "#server/http/security-txt.ts";

test("security.txt names the contact, the policy, the language and its own address, and expires within a year", () => {
  const now = new Date("2026-11-23T10:20:30.456Z");
  const text = securityTxt({ siteUrl: "https://tieout.example" }, now);
  const field = (name: string) => new RegExp(`^${name}: (.+)$`, "m").exec(text)?.[1];
  expect(field("Contact")).toBe("mailto:security@tieout.ai");
  expect(field("Policy")).toBe("https://tieout.example/security#report-a-vulnerability");
  expect(field("Preferred-Languages")).toBe("en");
  expect(field("Canonical")).toBe("https://tieout.example/.well-known/security.txt");
  const expires = field("Expires")!;
  expect(expires).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  const ahead = new Date(expires).getTime() - now.getTime();
  expect(ahead).toBeGreaterThan(30 * 86_400_000);
  expect(ahead).toBeLessThan(365 * 86_400_000);
  expect(text.endsWith("\n")).toBe(true);
});
