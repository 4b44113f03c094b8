/**
 * Imports as the admin pages see them (issue 37, part 5): the fields a sheet's columns map to, a
 * preview of what importing it would do, row by row, and the import itself. Read on the server by
 * server/waitlist/import/.
 */

export const IMPORT_FIELDS = ["email", "name", "company", "message", "createdAt"] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/** The words the mapping form uses for each field. */
export const IMPORT_FIELD_LABELS: Record<ImportField, string> = {
  email: "Email (required)",
  name: "Full name (required)",
  company: "Company",
  message: "Use case",
  createdAt: "Signed up on (kept as the entry's date)",
};

/** Which column (by its index) holds each field; a field left out is not imported. */
export type Mapping = Partial<Record<ImportField, number>>;

export type OutcomeKind = "new" | "exists" | "duplicate" | "suppressed" | "invalid";
export type OutcomeCounts = Record<OutcomeKind, number>;

/** A row of the preview: the sheet's row number, the address, what becomes of it, and why. */
export type PreviewRow = { row: number; email: string; kind: OutcomeKind; detail: string };

export type ImportPreview = {
  id: string;
  fileName: string;
  headers: string[];
  mapping: Mapping;
  counts: OutcomeCounts;
  /** The first rows, in the sheet's order; `total` says how many there are. */
  rows: PreviewRow[];
  total: number;
};

export type ConsentBasis = "confirmed" | "unconfirmed";

/** Why an import wrote nothing. */
export type ImportRefusal = { ok: false; message: string };

export type ImportOutcome = { ok: true; counts: OutcomeCounts; created: number } | ImportRefusal;

/** An import that was made: the file, how consent was had, who imported it, and what it did. */
export type ImportDone = {
  id: string;
  fileName: string;
  basis: ConsentBasis;
  statement: string | null;
  importedAt: string;
  importedBy: string;
  counts: OutcomeCounts;
};

export type ImportsPort = {
  /** An import made from this upload, or null when it is not imported (or not there). */
  done: (id: string) => Promise<ImportDone | null>;
  /** The latest imports, newest first. */
  recent: () => Promise<ImportDone[]>;
  /** Why this administrator's upload (its id) was refused, within the day; null otherwise. */
  refusal: (id: string, adminEmail: string) => Promise<string | null>;
  /** The staged file's preview with this mapping (the headers' own when null); null when gone. */
  preview: (id: string, mapping: Mapping | null) => Promise<ImportPreview | null>;
  run: (
    id: string,
    mapping: Mapping,
    basis: ConsentBasis,
    statement: string,
    expected: OutcomeCounts,
    actor: { adminEmail: string; clientAddress: string },
  ) => Promise<ImportOutcome>;
};
