import { formatDate } from "#src/content/dates.ts";
import {
  changesOf,
  type Subprocessor,
  type SubprocessorChange,
  subprocessorById,
  subprocessorName,
  SUBPROCESSOR_NOTICE_DAYS,
} from "#src/content/subprocessors.ts";

/** The columns after the row's name: each one's heading and the field it shows. */
const COLUMNS = [
  ["Purpose", "purpose"],
  ["Data", "data"],
  ["Location", "location"],
] as const satisfies readonly (readonly [string, keyof Subprocessor])[];

/**
 * The table of sub-processors: who, what for, which data, where. A row that a change adds or
 * removes says from or until when, in dates, so the page stays true whenever it is read.
 */
export function SubprocessorTable({
  list,
  changes,
}: {
  list: readonly Subprocessor[];
  changes: readonly SubprocessorChange[];
}) {
  return (
    // One markup for every width: a table where its four columns fit, and on a phone one labelled
    // block per row (`stacked-table` in app.css), so nothing scrolls sideways.
    <div className="overflow-x-auto rounded-lg border border-rule">
      <table className="stacked-table w-full border-collapse text-left text-sm leading-6">
        <caption className="sr-only">Sub-processors: name, purpose, data and location</caption>
        <thead className="bg-ledger-soft text-ink">
          <tr>
            {["Name", ...COLUMNS.map(([heading]) => heading)].map((heading) => (
              <th key={heading} scope="col" className="px-4 py-2.5 font-semibold">
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {list.map((row) => {
            const { added, removed } = changesOf(row.id, changes);
            return (
              <tr key={row.id} className="border-t border-rule align-top">
                <th scope="row" className="px-4 py-2.5 font-semibold text-ink">
                  {row.entity}
                  <span className="block font-normal text-ink-soft">{row.service}</span>
                  {added ? (
                    <span className="block font-normal text-ledger-dark">
                      From {formatDate(added.effective)}
                    </span>
                  ) : null}
                  {removed ? (
                    <span className="block font-normal text-ledger-dark">
                      Until {formatDate(removed.effective)}
                    </span>
                  ) : null}
                </th>
                {COLUMNS.map(([heading, field]) => (
                  <td key={field} data-label={heading} className="px-4 py-2.5">
                    {row[field]}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** Every change, newest first, each with its anchor (the feed and the notices link to it). */
export function SubprocessorChanges({
  list,
  changes,
}: {
  list: readonly Subprocessor[];
  changes: readonly SubprocessorChange[];
}) {
  if (changes.length === 0)
    return (
      <p>
        No change has been announced. A new or replaced sub-processor is announced here at least{" "}
        {SUBPROCESSOR_NOTICE_DAYS} days before it takes effect.
      </p>
    );
  return (
    <ol className="space-y-5">
      {[...changes].reverse().map((change) => {
        const added = change.adds ? subprocessorById(change.adds, list) : undefined;
        const removed = change.removes ? subprocessorById(change.removes, list) : undefined;
        return (
          <li key={change.id} id={`change-${change.id}`} className="scroll-mt-24">
            <p className="font-semibold text-ink">{change.summary}</p>
            <p className="text-ink-soft">
              Published {formatDate(change.published)}; takes effect {formatDate(change.effective)}.
              {added ? ` Adds ${subprocessorName(added)}.` : ""}
              {removed ? ` Ends the use of ${subprocessorName(removed)}.` : ""}
            </p>
          </li>
        );
      })}
    </ol>
  );
}
