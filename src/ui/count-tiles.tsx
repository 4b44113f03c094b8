/** A row of figures, each a number and what it counts ("3 waiting now"), as one labelled list. */
export function CountTiles({
  label,
  items,
  className = "",
}: {
  label: string;
  items: readonly { n: number; what: string }[];
  className?: string;
}) {
  return (
    <ul aria-label={label} className={`flex flex-wrap gap-3 ${className}`}>
      {items.map(({ n, what }) => (
        <li key={what} className="rounded-xl border border-rule bg-card px-5 py-3">
          <span className="text-2xl font-semibold tabular-nums">{n.toLocaleString("en-US")}</span>{" "}
          {what}
        </li>
      ))}
    </ul>
  );
}
