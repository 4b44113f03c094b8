/**
 * The admin list's filters by qualifying answer (decision 043), inside its GET form: a disclosure
 * that opens by itself when a filter is set, with a set of boxes per question. An entry is shown
 * when it gave any of a question's ticked answers, for every question with one ticked.
 */
import { QUESTIONS } from "#src/content/qualifying-questions.ts";
import type { AnswersFilter } from "#src/features/waitlist/answers.ts";

export function AnswersFilterFields({ filter }: { filter: AnswersFilter }) {
  const active = Object.keys(filter).length > 0;
  return (
    <details open={active} className="w-full rounded-md border border-rule bg-card px-4 py-2">
      <summary className="min-h-10 cursor-pointer py-2 text-sm font-semibold">
        Filter by answers{active ? ` (${Object.keys(filter).length} set)` : ""}
      </summary>
      <div className="grid gap-4 pt-2 pb-3 sm:grid-cols-2 lg:grid-cols-3">
        {QUESTIONS.map((question) => {
          const ticked = new Set(filter[question.id] ?? []);
          return (
            <fieldset key={question.id} className="min-w-0">
              <legend className="text-sm font-semibold">{question.short}</legend>
              <div
                className={
                  question.choices.length > 14
                    ? "mt-1 max-h-48 overflow-y-auto rounded border border-rule px-2"
                    : "mt-1"
                }
              >
                {question.choices.map((choice) => (
                  <label key={choice.id} className="flex min-h-9 items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      name={question.id}
                      value={choice.id}
                      defaultChecked={ticked.has(choice.id)}
                      className="size-4 shrink-0 accent-ledger"
                    />
                    {choice.label}
                  </label>
                ))}
              </div>
            </fieldset>
          );
        })}
      </div>
    </details>
  );
}
