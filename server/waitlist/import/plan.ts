/**
 * What an import would do, row by row (issue 37, part 5), before anything is written: the columns
 * mapped to the waitlist's fields, and each row's outcome. A row is checked by the waitlist form's
 * own schema and throwaway list; a second row for an address in the file is merged into the first
 * (whatever its case); an address already on the list, or suppressed, is left as it is.
 */
import { isDisposableEmail } from "#server/waitlist/disposable.ts";
import { DISPOSABLE_MESSAGE, parseWaitlistEntry } from "#src/features/waitlist/schema.ts";
import type { Sheet } from "#server/waitlist/import/sheet.ts";
import {
  IMPORT_FIELDS,
  type ImportField,
  type Mapping,
  type OutcomeCounts,
} from "#src/lib/imports.ts";

/** Header words that name each field, as sign-up sheets and form services write them. */
const NAMES: Record<ImportField, RegExp> = {
  email: /^(e-?mail|e-?mail address|work e-?mail|your e-?mail|email_address)$/i,
  name: /^(name|full name|your name|full_name|contact name)$/i,
  company: /^(company|firm|company name|organi[sz]ation|firm name|practice)$/i,
  message: /^(use case|message|notes?|comments?|tell us about your use case|use_case)$/i,
  createdAt:
    /^(timestamp|date|created|created at|created_at|signed up|sign-?up date|submitted|submitted at|added)$/i,
};

/** The mapping a header row suggests: each field to the first column whose name says it. */
export function guessMapping(headers: readonly string[]): Mapping {
  const mapping: Mapping = {};
  const taken = new Set<number>();
  for (const field of IMPORT_FIELDS) {
    const i = headers.findIndex((h, at) => !taken.has(at) && NAMES[field].test(h.trim()));
    if (i >= 0) {
      mapping[field] = i;
      taken.add(i);
    }
  }
  return mapping;
}

const MONTH_DAY_YEAR =
  /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?)?$/;
const YEAR_MONTH_DAY =
  /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * A sign-up time as sheets write it, in UTC unless it says otherwise: `2026-03-04`, `2026-03-04
 * 10:11:12`, ISO 8601 with Z or an offset, or the US month/day/year of Google Forms and Excel
 * (`3/4/2026 10:11:12`, `3/4/2026 2:05 PM`). Null for anything else, or a day not on the calendar.
 */
export function signUpTime(text: string): Date | null {
  const t = text.trim();
  let parts: number[];
  let zone = "Z";
  const us = MONTH_DAY_YEAR.exec(t);
  const iso = YEAR_MONTH_DAY.exec(t);
  if (us) {
    const [, m, d, y, h = "0", min = "0", s = "0", half] = us;
    let hour = Number(h);
    if (half) {
      if (hour < 1 || hour > 12) return null;
      hour = (hour % 12) + (half.toLowerCase() === "pm" ? 12 : 0);
    }
    parts = [Number(y), Number(m), Number(d), hour, Number(min), Number(s)];
  } else if (iso) {
    const [, y, m, d, h = "0", min = "0", s = "0", offset] = iso;
    parts = [Number(y), Number(m), Number(d), Number(h), Number(min), Number(s)];
    if (offset) zone = offset.length === 5 ? `${offset.slice(0, 3)}:${offset.slice(3)}` : offset;
  } else return null;
  const [y, m, d, h, min, s] = parts as [number, number, number, number, number, number];
  if (m < 1 || m > 12 || d < 1 || d > 31 || h > 23 || min > 59 || s > 59) return null;
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  const at = new Date(`${pad(y, 4)}-${pad(m)}-${pad(d)}T${pad(h)}:${pad(min)}:${pad(s)}${zone}`);
  if (Number.isNaN(at.getTime())) return null;
  // February 30th rolls over in Date: the day must read back as written (in UTC, without offset).
  if (zone === "Z" && at.getUTCDate() !== d) return null;
  return at;
}

type PlannedEntry = {
  email: string;
  name: string;
  company: string | null;
  message: string | null;
  createdAt: Date | null;
};

export type RowOutcome =
  | { row: number; kind: "new"; entry: PlannedEntry }
  | { row: number; kind: "exists"; email: string }
  | { row: number; kind: "duplicate"; email: string; of: number }
  | { row: number; kind: "suppressed"; email: string }
  | { row: number; kind: "invalid"; email: string; reason: string };

export type Plan = { rows: RowOutcome[]; counts: OutcomeCounts };

/**
 * Each row's outcome. `existing` and `suppressed` are the file's addresses (lower case) already on
 * the list and on the suppression list; `now` bounds the sign-up dates (none in the future).
 */
export function planImport(
  sheet: Sheet,
  mapping: Mapping,
  {
    existing,
    suppressed,
    now,
  }: { existing: ReadonlySet<string>; suppressed: ReadonlySet<string>; now: Date },
): Plan {
  const cell = (row: string[], field: ImportField) =>
    mapping[field] === undefined ? "" : (row[mapping[field]] ?? "");
  const firstRow = new Map<string, number>();
  const rows: RowOutcome[] = sheet.rows.map(({ at, cells: row }): RowOutcome => {
    const rawEmail = cell(row, "email").trim();
    const parsed = parseWaitlistEntry({
      name: cell(row, "name"),
      email: rawEmail,
      company: cell(row, "company"),
      message: cell(row, "message"),
    });
    if (!parsed.ok) {
      const reason =
        parsed.fieldErrors.email ??
        parsed.fieldErrors.name ??
        parsed.fieldErrors.company ??
        parsed.fieldErrors.message ??
        parsed.formErrors[0] ??
        "This row could not be read.";
      return { row: at, kind: "invalid", email: rawEmail, reason };
    }
    const { entry } = parsed;
    const address = entry.email.toLowerCase();
    const earlier = firstRow.get(address);
    if (earlier !== undefined)
      return { row: at, kind: "duplicate", email: entry.email, of: earlier };
    firstRow.set(address, at);
    if (isDisposableEmail(entry.email))
      return { row: at, kind: "invalid", email: entry.email, reason: DISPOSABLE_MESSAGE };
    let createdAt: Date | null = null;
    const when = cell(row, "createdAt").trim();
    if (when !== "") {
      createdAt = signUpTime(when);
      if (!createdAt)
        return {
          row: at,
          kind: "invalid",
          email: entry.email,
          reason: `The sign-up date "${when.slice(0, 40)}" is not a date this import reads (2026-03-04, 2026-03-04 10:11, 3/4/2026 10:11:12).`,
        };
      if (createdAt > now)
        return {
          row: at,
          kind: "invalid",
          email: entry.email,
          reason: `The sign-up date "${when}" is in the future.`,
        };
    }
    if (existing.has(address)) return { row: at, kind: "exists", email: entry.email };
    if (suppressed.has(address)) return { row: at, kind: "suppressed", email: entry.email };
    return {
      row: at,
      kind: "new",
      entry: {
        email: entry.email,
        name: entry.name,
        company: entry.company,
        message: entry.message,
        createdAt,
      },
    };
  });
  const counts = { new: 0, exists: 0, duplicate: 0, suppressed: 0, invalid: 0 };
  for (const r of rows) counts[r.kind]++;
  return { rows, counts };
}
