const DATE_TIME = new Intl.DateTimeFormat("en-US", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "UTC",
});

/** A moment as the admin pages show it, in UTC (their column headings say so): "Nov 23, 2026, 3:10 PM". */
export function formatDateTime(iso: string): string {
  return DATE_TIME.format(new Date(iso));
}
