import { describe, expect, test } from "vitest";
import type { IsoDate } from "#src/content/dates.ts";
import {
  SUBPROCESSOR_CHANGES,
  SUBPROCESSOR_NOTICE_DAYS,
  SUBPROCESSORS,
  subprocessorProblems,
  type SubprocessorChange,
} from "#src/content/subprocessors.ts";

const TODAY: IsoDate = "2026-11-23";

const change = (published: IsoDate, effective: IsoDate): SubprocessorChange => ({
  id: "add-stripe",
  published,
  effective,
  summary: "We will take card payments through Stripe.",
  adds: "stripe",
});

describe("the 30-day notice the DPA promises", () => {
  test("the sub-processors and changes as published have no problem", () => {
    const today = new Date().toISOString().slice(0, 10) as IsoDate;
    expect(subprocessorProblems(SUBPROCESSORS, SUBPROCESSOR_CHANGES, today)).toEqual([]);
  });

  test("a change that takes effect 29 days after its publication is refused, naming it", () => {
    const problems = subprocessorProblems(
      SUBPROCESSORS,
      [change("2026-11-01", "2026-11-30")],
      TODAY,
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('"add-stripe" takes effect 29 days after its publication');
    expect(problems[0]).toContain(`at least ${SUBPROCESSOR_NOTICE_DAYS} days' notice`);
  });

  test("30 days is enough, across a month end and a leap day", () => {
    expect(
      subprocessorProblems(SUBPROCESSORS, [change("2026-11-01", "2026-12-01")], TODAY),
    ).toEqual([]);
    expect(
      subprocessorProblems(SUBPROCESSORS, [change("2024-02-10", "2024-03-11")], TODAY),
    ).toEqual([]);
    expect(
      subprocessorProblems(SUBPROCESSORS, [change("2024-02-10", "2024-03-10")], TODAY),
    ).toHaveLength(1);
  });

  test("a change published after today, or on a date that does not exist, is refused", () => {
    expect(
      subprocessorProblems(SUBPROCESSORS, [change("2026-11-24", "2027-01-01")], TODAY)[0],
    ).toContain("after today");
    expect(
      subprocessorProblems(SUBPROCESSORS, [change("2026-02-30", "2026-04-01")], TODAY)[0],
    ).toContain("real dates");
  });

  test("a change must name a listed sub-processor, and ids are kebab-case and unique", () => {
    const unknown = { ...change("2026-11-01", "2026-12-15"), adds: "nobody" };
    expect(subprocessorProblems(SUBPROCESSORS, [unknown], TODAY)).toEqual([
      'Sub-processor change "add-stripe" names "nobody", which SUBPROCESSORS does not list.',
    ]);
    const empty = { ...change("2026-11-01", "2026-12-15"), adds: undefined };
    expect(subprocessorProblems(SUBPROCESSORS, [empty], TODAY)[0]).toContain(
      "neither adds nor removes",
    );
    const twice = [change("2026-11-01", "2026-12-15"), change("2026-11-02", "2026-12-15")];
    expect(subprocessorProblems(SUBPROCESSORS, twice, TODAY).join(" ")).toContain("used twice");
    expect(
      subprocessorProblems([{ ...SUBPROCESSORS[0]!, id: "Google Cloud" }], [], TODAY)[0],
    ).toContain("not kebab-case");
  });
});
