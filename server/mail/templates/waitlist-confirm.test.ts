import { expect, test } from "vitest";
import { renderWaitlistConfirm } from "#server/mail/templates/waitlist-confirm.tsx";
import { addressLines, SITE } from "#src/content/site.ts";

const mail = renderWaitlistConfirm({
  confirmUrl: "https://tieout.example/waitlist/confirm?token=CONFIRM",
  removeUrl: "https://tieout.example/waitlist/remove?token=REMOVE",
  siteUrl: "https://tieout.example",
});

test("the text part has both links, the product's name and the postal address", () => {
  expect(mail.subject).toBe(`Confirm your place on the ${SITE.name} waitlist`);
  expect(mail.text).toContain("https://tieout.example/waitlist/confirm?token=CONFIRM");
  expect(mail.text).toContain("https://tieout.example/waitlist/remove?token=REMOVE");
  expect(mail.text).toContain(SITE.legalEntity);
  for (const line of addressLines()) expect(mail.text).toContain(line);
});

test("the HTML part has the same links and address, and nothing fetched", () => {
  expect(mail.html).toMatch(/^<!DOCTYPE html><html lang="en">/);
  expect(mail.html).toContain('href="https://tieout.example/waitlist/confirm?token=CONFIRM"');
  expect(mail.html).toContain('href="https://tieout.example/waitlist/remove?token=REMOVE"');
  for (const line of addressLines()) expect(mail.html).toContain(line);
  expect(mail.html).not.toMatch(/<img|<script|<link|url\(/i);
});
