import { expect, test } from "vitest";
import { subprocessorFeed } from "#server/subprocessors/feed.ts";
import { SUBPROCESSORS } from "#src/content/subprocessors.ts";

const SITE_URL = "https://tieout.example";

test("an Atom feed with one entry per change, newest first, its text escaped", () => {
  const xml = subprocessorFeed(SITE_URL, SUBPROCESSORS, [
    {
      id: "add-stripe",
      published: "2026-01-05",
      effective: "2026-02-10",
      summary: "We will take payments through Stripe & <co>.",
      adds: "stripe",
    },
    {
      id: "drop-ses",
      published: "2026-03-01",
      effective: "2026-04-01",
      summary: "We will stop using Amazon SES.",
      removes: "amazon-ses",
    },
  ]);
  expect(xml).toMatch(
    /^<\?xml version="1.0" encoding="utf-8"\?>\n<feed xmlns="http:\/\/www.w3.org\/2005\/Atom">/,
  );
  expect(xml).toContain(`<id>${SITE_URL}/subprocessors</id>`);
  expect(xml).toContain(`<link rel="self" href="${SITE_URL}/subprocessors/feed.atom"/>`);
  expect(xml).toContain("<updated>2026-03-01T00:00:00.000Z</updated>");
  const ids = [...xml.matchAll(/<entry>\s*<title[^>]*>.*?<\/title>\s*<id>([^<]+)<\/id>/gs)].map(
    (m) => m[1],
  );
  expect(ids).toEqual([
    `${SITE_URL}/subprocessors#change-drop-ses`,
    `${SITE_URL}/subprocessors#change-add-stripe`,
  ]);
  expect(xml).toContain("Stripe &amp; &lt;co&gt;.");
  expect(xml).not.toContain("<co>");
  expect(xml).toContain("New sub-processor: Stripe, Inc. (Stripe Payments).");
  expect(xml).toContain("takes effect February 10, 2026.");
});

test("with no change yet, the feed is valid and dated the day the list was first published", () => {
  const xml = subprocessorFeed(SITE_URL, SUBPROCESSORS, []);
  expect(xml).toContain("<updated>2025-06-01T00:00:00.000Z</updated>");
  expect(xml).not.toContain("<entry>");
});
