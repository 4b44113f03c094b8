import { expect, test } from "vitest";
import {
  ANY_ENTRY,
  describeFilter,
  entryFilterOf,
  entryFilterText,
  narrows,
} from "#src/features/waitlist/entry-filter.ts";

test("an address's filter has one spelling, whatever order and oddities it came in", () => {
  const filter = entryFilterOf(
    new URLSearchParams(
      "practice=us-tx&to=2026-11-30&from=2026-02-30&state=nonsense&source=%20LinkedIn%20&q=%20ann%00&after=x",
    ),
  );
  expect(filter).toEqual({
    query: "ann",
    state: null,
    source: "linkedin",
    from: null,
    to: "2026-11-30",
    answers: { practice: ["us-tx"] },
  });
  expect(entryFilterText(filter)).toBe("q=ann&source=linkedin&to=2026-11-30&practice=us-tx");
  expect(entryFilterOf(new URLSearchParams(entryFilterText(filter)))).toEqual(filter);
});

test("the filter in words, and every entry when nothing narrows it", () => {
  expect(narrows(ANY_ENTRY)).toBe(false);
  expect(describeFilter(ANY_ENTRY)).toBe("every entry");
  expect(
    describeFilter({
      ...ANY_ENTRY,
      state: "confirmed",
      source: "linkedin",
      from: "2026-11-01",
      answers: { firmSize: ["solo", "2-5"], practice: ["us-tx"] },
    }),
  ).toBe(
    "confirmed only, source linkedin, added from 2026-11-01, firm size: Just me or 2 to 5, where: Texas",
  );
});
