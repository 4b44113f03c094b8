import { describe, expect, test } from "vitest";
import { QUESTIONS } from "#src/content/qualifying-questions.ts";
import {
  answersFilterDocuments,
  answersFilterOf,
  answersFilterParams,
  chosenLabels,
  readAnswersForm,
  readStoredAnswers,
} from "#src/features/waitlist/answers.ts";

const form = (pairs: [string, string][]) => {
  const data = new FormData();
  for (const [name, value] of pairs) data.append(name, value);
  return data;
};

describe("the questions' source", () => {
  test("every question and every choice has an id of its own", () => {
    expect(new Set(QUESTIONS.map((q) => q.id)).size).toBe(QUESTIONS.length);
    for (const q of QUESTIONS)
      expect(new Set(q.choices.map((c) => c.id)).size).toBe(q.choices.length);
  });

  test("where one practises offers every state, the District of Columbia, and outside the US", () => {
    const practice = QUESTIONS.find((q) => q.id === "practice")!;
    expect(practice.choices).toHaveLength(52);
    expect(practice.choices.map((c) => c.label)).toContain("Texas");
    expect(practice.choices.at(-1)!.label).toBe("Outside the United States");
  });
});

describe("readAnswersForm", () => {
  test("keeps what was chosen, leaves alone what was not, and lists several choices in the form's order", () => {
    const read = readAnswersForm(
      form([
        ["token", "ignored"],
        ["firmSize", "2-5"],
        ["role", ""],
        ["software", "drake"],
        ["software", "ultratax"],
        ["software", "drake"],
        ["practice", "us-tx"],
      ]),
    );
    expect(read).toEqual({
      ok: true,
      answers: { firmSize: "2-5", software: ["ultratax", "drake"], practice: "us-tx" },
    });
  });

  test("an empty form is no answers at all", () => {
    expect(readAnswersForm(form([]))).toEqual({ ok: true, answers: {} });
  });

  test.each([
    ["a choice the page never offered", [["firmSize", "huge"]]],
    [
      "two answers to a one-answer question",
      [
        ["firmSize", "solo"],
        ["firmSize", "2-5"],
      ],
    ],
    [
      "an unknown box among known ones",
      [
        ["software", "drake"],
        ["software", "<script>"],
      ],
    ],
    ["a file in place of a value", [["role", "FILE"]]],
  ] as const)("%s is refused whole", (_, pairs) => {
    const data = form(pairs.map(([n, v]) => [n, v]));
    if (pairs[0][1] === "FILE") data.set("role", new Blob(["owner"]), "role.txt");
    expect(readAnswersForm(data)).toEqual({
      ok: false,
      message: "The form was not sent as the page wrote it. Please reload it and try again.",
    });
  });
});

describe("readStoredAnswers", () => {
  test("keeps what the source knows, drops the rest, and reads anything odd as no answers", () => {
    expect(
      readStoredAnswers({
        firmSize: "6-20",
        role: ["owner"],
        software: ["retired-product", "xero", 7],
        returns: [],
        unknown: "x",
      }),
    ).toEqual({ firmSize: "6-20", software: ["xero"] });
    for (const odd of [null, "text", 3, ["solo"]]) expect(readStoredAnswers(odd)).toEqual({});
  });

  test("labels an answer as the form wrote it", () => {
    const answers = readStoredAnswers({ returns: ["1120s", "1040"], practice: "us-ny" });
    expect(chosenLabels(answers, "returns")).toEqual([
      "Individuals (Form 1040)",
      "S corporations (Form 1120-S)",
    ]);
    expect(chosenLabels(answers, "practice")).toEqual(["New York"]);
    expect(chosenLabels(answers, "role")).toEqual([]);
  });
});

describe("the admin list's filter by answers", () => {
  test("reads the address, ignores what it does not know, and writes it back the same way", () => {
    const filter = answersFilterOf(
      new URLSearchParams("software=xero&firmSize=solo&software=drake&role=nobody&q=ann"),
    );
    expect(filter).toEqual({ firmSize: ["solo"], software: ["drake", "xero"] });
    expect(answersFilterParams(filter)).toEqual([
      ["firmSize", "solo"],
      ["software", "drake"],
      ["software", "xero"],
    ]);
  });

  test("asks the database, per question, for any one of its choices", () => {
    expect(answersFilterDocuments({ firmSize: ["solo", "2-5"], software: ["drake"] })).toEqual([
      ['{"firmSize":"solo"}', '{"firmSize":"2-5"}'],
      ['{"software":["drake"]}'],
    ]);
    expect(answersFilterDocuments({})).toEqual([]);
  });
});
