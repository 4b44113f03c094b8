/**
 * The qualifying questions' answers (decision 043) as forms send them, as the database keeps them,
 * and as the admin list filters by them. The questions and their choices are
 * src/content/qualifying-questions.ts; nothing here names one.
 */
import {
  choiceLabel,
  QUESTIONS,
  type Answers,
  type QuestionId,
} from "#src/content/qualifying-questions.ts";

type Stored = Record<string, string | string[]>;

const known = (question: (typeof QUESTIONS)[number], choice: string) =>
  question.choices.some((c) => c.id === choice);

/** `values` in the order the question lists its choices, each once. */
const inListOrder = (question: (typeof QUESTIONS)[number], values: Iterable<string>) => {
  const chosen = new Set(values);
  return question.choices.filter((c) => chosen.has(c.id)).map((c) => c.id);
};

const NOT_AS_WRITTEN =
  "The form was not sent as the page wrote it. Please reload it and try again.";

/**
 * The answers a form sent: a question with nothing chosen is left alone. A choice the page never
 * offered, or two choices for a one-choice question, is a form that was not the page's: refused
 * whole, nothing kept.
 */
export function readAnswersForm(
  form: FormData,
): { ok: true; answers: Answers } | { ok: false; message: string } {
  const answers: Stored = {};
  for (const question of QUESTIONS) {
    // "No answer" is an empty value: nothing chosen.
    const values = form.getAll(question.id).filter((v) => v !== "");
    if (values.some((v) => typeof v !== "string" || !known(question, v)))
      return { ok: false, message: NOT_AS_WRITTEN };
    const chosen = values as string[];
    if (chosen.length === 0) continue;
    if (question.pick === "one") {
      if (new Set(chosen).size > 1) return { ok: false, message: NOT_AS_WRITTEN };
      answers[question.id] = chosen[0]!;
    } else answers[question.id] = inListOrder(question, chosen);
  }
  return { ok: true, answers };
}

/**
 * Answers as the database returns them, read leniently: what the source still knows is kept, in
 * its order; anything else (a retired choice, a value of the wrong shape) is left out.
 */
export function readStoredAnswers(value: unknown): Answers {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  const stored = value as Record<string, unknown>;
  const answers: Stored = {};
  for (const question of QUESTIONS) {
    const raw = stored[question.id];
    if (question.pick === "one") {
      if (typeof raw === "string" && known(question, raw)) answers[question.id] = raw;
    } else if (Array.isArray(raw)) {
      const chosen = inListOrder(
        question,
        raw.filter((v): v is string => typeof v === "string"),
      );
      if (chosen.length > 0) answers[question.id] = chosen;
    }
  }
  return answers;
}

/** What a person chose for a question, as labels; empty when they left it alone. */
export function chosenLabels(answers: Answers | AnswersFilter, question: QuestionId): string[] {
  const value = (answers as Stored)[question];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map((choice) => choiceLabel(question, choice));
}

/**
 * A filter by answers: for each question, the choices any one of which an entry's answer must
 * hold (for a several-choice question: hold among its choices). Questions not named are not
 * filtered by. Between questions, every one must match.
 */
export type AnswersFilter = Partial<Record<QuestionId, string[]>>;

/**
 * The filter the address asks for, as the admin list's form writes it (`firmSize=2-5&software=
 * drake`): choices the source does not know are left out, each once, in the source's order.
 */
export function answersFilterOf(params: URLSearchParams): AnswersFilter {
  const filter: AnswersFilter = {};
  for (const question of QUESTIONS) {
    const chosen = inListOrder(question, params.getAll(question.id));
    if (chosen.length > 0) filter[question.id] = chosen;
  }
  return filter;
}

/** The filter back as the address's parameters, in the source's order. */
export function answersFilterParams(filter: AnswersFilter): [string, string][] {
  return QUESTIONS.flatMap((q) => (filter[q.id] ?? []).map((c): [string, string] => [q.id, c]));
}

/**
 * The documents the filter asks the database about: for each question filtered by, one JSON
 * object per choice; an entry matches a question when its answers contain any one of them, and
 * the filter when it matches every question. `answers @> doc` is what the GIN index answers.
 */
export function answersFilterDocuments(filter: AnswersFilter): string[][] {
  return QUESTIONS.filter((q) => (filter[q.id]?.length ?? 0) > 0).map((q) =>
    filter[q.id]!.map((choice) => JSON.stringify({ [q.id]: q.pick === "one" ? choice : [choice] })),
  );
}
