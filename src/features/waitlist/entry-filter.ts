/**
 * A filter of the waitlist's entries (issue 37, decision 044): the admin list's search, state,
 * source, dates and answers. Written one way only, as the list's address writes it
 * (`q=ann&state=confirmed&practice=us-tx`): the list reads its filter from the address, a saved
 * audience keeps that text, and a broadcast or an invitation batch aimed at an audience reads it
 * back the same way. Anything the reader does not know is left out, never an error: an old
 * bookmark still opens the list.
 */
import { isIsoDate, type IsoDate } from "#src/content/dates.ts";
import {
  answersFilterOf,
  answersFilterParams,
  chosenLabels,
  type AnswersFilter,
} from "#src/features/waitlist/answers.ts";
import { ENTRY_STATES, type EntryState } from "#src/features/waitlist/lifecycle.ts";
import { searchableText } from "#src/features/waitlist/schema.ts";
import { QUESTIONS } from "#src/content/qualifying-questions.ts";

export type EntryFilter = {
  /** Part of a name, an address or a company; "" for any. */
  query: string;
  state: EntryState | null;
  /** An entry's source as the dashboard names it (`linkedin`, `(direct)`); "" for any. */
  source: string;
  /** Added on or after this day (UTC); null for no bound. */
  from: IsoDate | null;
  /** Added on or before this day (UTC); null for no bound. */
  to: IsoDate | null;
  answers: AnswersFilter;
};

/** The most entries one audience's invitation batch invites, oldest first (decision 044). */
export const INVITE_BATCH_MAX = 500;

/** Every entry. */
export const ANY_ENTRY: EntryFilter = {
  query: "",
  state: null,
  source: "",
  from: null,
  to: null,
  answers: {},
};

const day = (value: string | null): IsoDate | null => (value && isIsoDate(value) ? value : null);

/** The filter an address (or a saved audience's text) asks for. */
export function entryFilterOf(params: URLSearchParams): EntryFilter {
  const state = params.get("state");
  return {
    query: searchableText(params.get("q") ?? ""),
    state: ENTRY_STATES.includes(state as EntryState) ? (state as EntryState) : null,
    source: searchableText(params.get("source") ?? "", 64).toLowerCase(),
    from: day(params.get("from")),
    to: day(params.get("to")),
    answers: answersFilterOf(params),
  };
}

/** The filter as the address's parameters, in one order: what an audience stores. */
export function entryFilterParams(filter: EntryFilter): [string, string][] {
  return [
    ...(filter.query ? [["q", filter.query] as [string, string]] : []),
    ...(filter.state ? [["state", filter.state] as [string, string]] : []),
    ...(filter.source ? [["source", filter.source] as [string, string]] : []),
    ...(filter.from ? [["from", filter.from] as [string, string]] : []),
    ...(filter.to ? [["to", filter.to] as [string, string]] : []),
    ...answersFilterParams(filter.answers),
  ];
}

/** The filter's one spelling, `q=ann&state=confirmed`; "" for every entry. */
export const entryFilterText = (filter: EntryFilter) =>
  new URLSearchParams(entryFilterParams(filter)).toString();

/** Whether the filter narrows the list at all. */
export const narrows = (filter: EntryFilter) => entryFilterText(filter) !== "";

/**
 * The filter in words, for the list's caption and an audience's row: `matching “ann”, confirmed
 * only, source linkedin, where: Texas`.
 */
export function describeFilter(filter: EntryFilter): string {
  const parts = [
    filter.query ? `matching “${filter.query}”` : "",
    filter.state ? `${filter.state} only` : "",
    filter.source ? `source ${filter.source}` : "",
    filter.from && filter.to
      ? `added ${filter.from} to ${filter.to}`
      : filter.from
        ? `added from ${filter.from}`
        : filter.to
          ? `added until ${filter.to}`
          : "",
    ...QUESTIONS.filter((q) => filter.answers[q.id]).map(
      (q) => `${q.short.toLowerCase()}: ${chosenLabels(filter.answers, q.id).join(" or ")}`,
    ),
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(", ") : "every entry";
}
