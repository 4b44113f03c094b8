import { describe, expect, test } from "vitest";
import { guessMapping, planImport, signUpTime } from "#server/waitlist/import/plan.ts";

describe("mapping and planning an import", () => {
  test("the columns a sheet's headers name are mapped to the fields", () => {
    expect(
      guessMapping(["Timestamp", "Full name", "Email address", "Firm", "Notes", "Phone"]),
    ).toEqual({
      createdAt: 0,
      name: 1,
      email: 2,
      company: 3,
      message: 4,
    });
    expect(guessMapping(["Phone"])).toEqual({});
  });

  test("sign-up times as sheets write them, in UTC unless they say otherwise", () => {
    expect(signUpTime("2026-03-04")?.toISOString()).toBe("2026-03-04T00:00:00.000Z");
    expect(signUpTime("2026-03-04 10:11:12")?.toISOString()).toBe("2026-03-04T10:11:12.000Z");
    expect(signUpTime("2026-03-04T10:11:12+0200")?.toISOString()).toBe("2026-03-04T08:11:12.000Z");
    expect(signUpTime("3/4/2026 10:11:12")?.toISOString()).toBe("2026-03-04T10:11:12.000Z");
    expect(signUpTime("3/4/2026 2:05 PM")?.toISOString()).toBe("2026-03-04T14:05:00.000Z");
    expect(signUpTime("12/31/2025 12:00 AM")?.toISOString()).toBe("2025-12-31T00:00:00.000Z");
    for (const odd of ["2026-02-30", "13/1/2026", "yesterday", "2026-03-04 25:00", "3/4/26", ""])
      expect(signUpTime(odd), odd).toBeNull();
  });

  test("each row's outcome: new, already there, merged, suppressed, or invalid with the reason", () => {
    const sheet = {
      headers: ["Email", "Name", "Company", "Signed up"],
      rows: (
        [
          ["Ann@Example-CPA.com", "Ann Ames", "Ames CPA", "2026-01-05"],
          ["ann@example-cpa.com", "Ann Again", "", ""],
          ["old@example-cpa.com", "Old Lead", "", ""],
          ["quiet@example-cpa.com", "Quiet", "", ""],
          ["not an address", "Nobody", "", ""],
          ["noname@example-cpa.com", "", "", ""],
          ["temp@mailinator.com", "Temp", "", ""],
          ["later@example-cpa.com", "Later", "", "2099-01-01"],
          ["odd@example-cpa.com", "Odd", "", "soon"],
          ["bo@example-cpa.com", "Bo", "", "3/4/2026 9:00 AM"],
        ] as string[][]
      ).map((cells, i) => ({ at: i + 2, cells })),
    };
    const plan = planImport(
      sheet,
      { email: 0, name: 1, company: 2, createdAt: 3 },
      {
        existing: new Set(["old@example-cpa.com"]),
        suppressed: new Set(["quiet@example-cpa.com"]),
        now: new Date("2026-11-28T00:00:00Z"),
      },
    );
    expect(plan.counts).toEqual({ new: 2, exists: 1, duplicate: 1, suppressed: 1, invalid: 5 });
    expect(plan.rows[0]).toEqual({
      row: 2,
      kind: "new",
      entry: {
        email: "Ann@Example-CPA.com",
        name: "Ann Ames",
        company: "Ames CPA",
        message: null,
        createdAt: new Date("2026-01-05T00:00:00Z"),
      },
    });
    expect(plan.rows[1]).toEqual({
      row: 3,
      kind: "duplicate",
      email: "ann@example-cpa.com",
      of: 2,
    });
    expect(plan.rows.slice(4, 9).map((r) => (r.kind === "invalid" ? r.reason : r.kind))).toEqual([
      "Please enter a valid email address.",
      "Please enter your name.",
      expect.stringMatching(/throwaway/) as unknown as string,
      'The sign-up date "2099-01-01" is in the future.',
      expect.stringMatching(/is not a date this import reads/) as unknown as string,
    ]);
    expect(plan.rows[9]).toMatchObject({
      kind: "new",
      entry: { createdAt: new Date("2026-03-04T09:00:00Z") },
    });
  });
});
