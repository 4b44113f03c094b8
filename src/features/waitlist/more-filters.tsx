/**
 * The admin list's filters past the search and the state (decisions 043, 044), inside its GET
 * form: a disclosure, open by itself when one is set, with the source, the days the entries were
 * added, and a set of boxes per qualifying question. An entry is shown when it gave any of a
 * question's ticked answers, for every question with one ticked.
 */
import { QUESTIONS } from "#src/content/qualifying-questions.ts";
import { ChoiceBoxes } from "#src/features/waitlist/choice-boxes.tsx";
import type { EntryFilter } from "#src/features/waitlist/entry-filter.ts";

const INPUT = "mt-1 block min-h-11 w-full rounded-md border border-rule bg-white px-3";

export function MoreFilters({ filter }: { filter: EntryFilter }) {
  const set =
    Object.keys(filter.answers).length +
    (filter.source ? 1 : 0) +
    (filter.from ? 1 : 0) +
    (filter.to ? 1 : 0);
  return (
    <details open={set > 0} className="w-full rounded-md border border-rule bg-card px-4 py-2">
      <summary className="min-h-10 cursor-pointer py-2 text-sm font-semibold">
        More filters: source, dates, answers{set > 0 ? ` (${set} set)` : ""}
      </summary>
      <div className="grid gap-4 pt-2 sm:grid-cols-3">
        <label className="block text-sm font-semibold">
          Source
          <input
            type="text"
            name="source"
            defaultValue={filter.source}
            placeholder="linkedin, (direct)…"
            className={INPUT}
          />
        </label>
        <label className="block text-sm font-semibold">
          Added from (UTC)
          <input type="date" name="from" defaultValue={filter.from ?? ""} className={INPUT} />
        </label>
        <label className="block text-sm font-semibold">
          Added until (UTC)
          <input type="date" name="to" defaultValue={filter.to ?? ""} className={INPUT} />
        </label>
      </div>
      <div className="grid gap-4 pt-4 pb-3 sm:grid-cols-2 lg:grid-cols-3">
        {QUESTIONS.map((question) => {
          const ticked = new Set(filter.answers[question.id] ?? []);
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
                <ChoiceBoxes question={question} ticked={ticked} roomy={false} />
              </div>
            </fieldset>
          );
        })}
      </div>
    </details>
  );
}
