/**
 * The hero's illustration, drawn in HTML so it is sharp at any size, weighs nothing and is
 * readable text: a lead sheet whose figures tie out.
 */
const ROWS = [
  { account: "4000 · Revenue", amount: "1,284,500.00", note: "Tied to GL" },
  { account: "6100 · Meals & entertainment", amount: "18,240.00", note: "M1: 50% nondeductible" },
  { account: "6400 · Depreciation", amount: "42,115.00", note: "M1: book vs tax" },
  { account: "6900 · Penalties", amount: "1,350.00", note: "M1: nondeductible" },
] as const;

function Tick() {
  return (
    <svg viewBox="0 0 16 16" aria-hidden="true" className="size-4 shrink-0 text-ledger">
      <path
        d="M3 8.5l3 3L13 4.5"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export function LedgerCard() {
  return (
    <div
      role="img"
      aria-label="Example lead sheet in Excel: four accounts, each tied to its source by the Tieout agent, with M1 adjustments flagged and the total tied to the trial balance."
      className="relative rounded-xl border border-rule bg-card p-1.5 shadow-[0_30px_70px_-40px_rgba(15,42,36,0.6)]"
    >
      <div className="flex items-center justify-between rounded-t-lg bg-ledger px-4 py-2.5 text-[0.8rem] font-medium text-white">
        <span>Lead sheet · Income statement</span>
        <span className="rounded bg-ink/35 px-2 py-0.5 text-[0.7rem] tracking-wide uppercase">
          TB 2025
        </span>
      </div>
      <table className="w-full text-left text-[0.82rem] tabular-nums sm:text-sm" aria-hidden="true">
        <tbody>
          {ROWS.map((row) => (
            <tr key={row.account} className="border-b border-rule/70">
              <td className="py-2.5 pr-2 pl-4">
                <span className="block font-medium">{row.account}</span>
                <span className="mt-0.5 block text-xs text-ink-soft">{row.note}</span>
              </td>
              <td className="py-2.5 pr-3 text-right font-medium whitespace-nowrap">{row.amount}</td>
              <td className="py-2.5 pr-4">
                <Tick />
              </td>
            </tr>
          ))}
          <tr>
            <td className="py-3 pr-2 pl-4 font-semibold">Net per books</td>
            <td className="py-3 pr-3 text-right font-semibold whitespace-nowrap">
              <span className="pb-0.5 double-rule">1,222,795.00</span>
            </td>
            <td className="py-3 pr-4">
              <Tick />
            </td>
          </tr>
        </tbody>
      </table>
      <div className="m-2 mt-1 flex items-start gap-3 rounded-lg bg-tick-soft px-3.5 py-3 text-[0.8rem] leading-snug">
        <span className="mt-0.5 inline-flex size-5 shrink-0 items-center justify-center rounded-full bg-tick-ink text-[0.7rem] font-bold text-white">
          AI
        </span>
        <span>
          <span className="font-semibold">3 M1 adjustments found, each linked to source.</span>{" "}
          Ready for your review.
        </span>
      </div>
    </div>
  );
}
