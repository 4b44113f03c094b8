/** A calendar date as the content writes it: "2025-06-01". Read as that day in UTC. */
export type IsoDate = `${number}-${number}-${number}`;

const LONG_DATE = new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" });

/** Whether `text` is a real calendar date written YYYY-MM-DD (2025-02-30 is not). */
export function isIsoDate(text: string): text is IsoDate {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

/** Midnight UTC at the start of `date`. */
export function startOfDay(date: IsoDate): Date {
  return new Date(`${date}T00:00:00Z`);
}

/** "June 1, 2025": how the pages, the mails and the legal texts write a date. */
export function formatDate(date: IsoDate): string {
  return LONG_DATE.format(startOfDay(date));
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: IsoDate, to: IsoDate): number {
  return Math.round((startOfDay(to).getTime() - startOfDay(from).getTime()) / 86_400_000);
}
