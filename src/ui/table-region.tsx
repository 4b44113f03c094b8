import type { ReactNode } from "react";

/**
 * A wide table in a labelled region that scrolls sideways on a narrow screen (and takes focus, so
 * the keyboard can scroll it too), with a header row and a sentence in place of rows when there
 * are none. The admin pages' tables share it.
 */
export function TableRegion({
  label,
  headings,
  empty,
  minWidth = "min-w-[56rem]",
  className = "mt-4",
  children,
}: {
  label: string;
  headings: readonly string[];
  empty: string;
  /** A Tailwind min-width class: below it, the region scrolls. */
  minWidth?: string;
  className?: string;
  children: ReactNode[];
}) {
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className={`${className} overflow-x-auto rounded-xl border border-rule bg-card`}
    >
      <table className={`w-full ${minWidth} border-collapse text-left text-sm`}>
        <thead className="bg-ledger-soft">
          <tr>
            {headings.map((h) => (
              <th key={h} scope="col" className="px-4 py-3 font-semibold">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {children.length === 0 ? (
            <tr>
              <td colSpan={headings.length} className="px-4 py-8 text-center text-ink-soft">
                {empty}
              </td>
            </tr>
          ) : (
            children
          )}
        </tbody>
      </table>
    </div>
  );
}
