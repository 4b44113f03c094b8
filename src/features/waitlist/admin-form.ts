/**
 * The admin list's one form (decision 024): what its buttons and checkboxes send, read into an
 * action request. A row's button sends `act=invite:42` (its action and entry); "Invite selected"
 * sends `act=invite-selected` with the ticked `id`s; a ticked "Tell them" sends `tell=42`. Plain
 * form fields, so the form works without JavaScript. Every malformed request gets a sentence.
 */
import type { AdminAction } from "#src/features/waitlist/lifecycle.ts";
import type { AdminActionRequest } from "#src/features/waitlist/types.ts";

/** Entries one request may act on: a page of the list is 50. */
export const MAX_SELECTED = 100;

/** The value of a row's button: the action and the entry's id. */
export const rowAction = (action: AdminAction, id: number) => `${action}:${id}`;
export const INVITE_SELECTED = "invite-selected";

const ROW_ACTION = /^(invite|resend|decline|remove):(\d{1,15})$/;
const ID = /^\d{1,15}$/;

/** `bulk`: Invite selected, which needs a step-up (decision 039). */
type Parsed =
  { ok: true; request: AdminActionRequest; bulk: boolean } | { ok: false; message: string };

function ids(values: FormDataEntryValue[]): number[] | null {
  const texts = values.map((v) => (typeof v === "string" ? v : ""));
  return texts.every((t) => ID.test(t)) ? texts.map(Number) : null;
}

export function parseAdminForm(form: FormData): Parsed {
  const act = form.get("act");
  const tell = ids(form.getAll("tell"));
  if (tell === null) return { ok: false, message: "The form was not sent as the page wrote it." };
  if (act === INVITE_SELECTED) {
    const selected = ids(form.getAll("id"));
    if (selected === null)
      return { ok: false, message: "The form was not sent as the page wrote it." };
    if (selected.length === 0)
      return { ok: false, message: "Select at least one entry to invite." };
    if (new Set(selected).size > MAX_SELECTED)
      return { ok: false, message: `Select at most ${MAX_SELECTED} entries at a time.` };
    return { ok: true, request: { action: "invite", ids: selected, tell: [] }, bulk: true };
  }
  const row = typeof act === "string" ? ROW_ACTION.exec(act) : null;
  if (!row) return { ok: false, message: "Choose an action: a row's button or Invite selected." };
  return {
    ok: true,
    request: { action: row[1] as AdminAction, ids: [Number(row[2])], tell },
    bulk: false,
  };
}

/** A saved audience's buttons (decision 044): save the list's filter, delete one, invite one. */
type AudienceRequest =
  | { kind: "save"; name: string; filter: string }
  | { kind: "delete"; id: number }
  | { kind: "invite"; id: number; expected: number };

export const AUDIENCE_SAVE = "audience-save";
export const audienceAction = (kind: "delete" | "invite", id: number) => `audience-${kind}:${id}`;
const AUDIENCE_ACTION = /^audience-(delete|invite):(\d{1,15})$/;

/** Whether a press is an audience's invitation batch, which needs a step-up. */
export const isInviteAudience = (act: unknown): boolean =>
  typeof act === "string" && AUDIENCE_ACTION.exec(act)?.[1] === "invite";

/** Whether a press is one of the audiences' buttons. */
export const isAudienceAction = (act: unknown): boolean =>
  act === AUDIENCE_SAVE || (typeof act === "string" && AUDIENCE_ACTION.test(act));

export function parseAudienceForm(
  form: FormData,
): { ok: true; request: AudienceRequest } | { ok: false; message: string } {
  const act = form.get("act");
  const text = (name: string) => {
    const values = form.getAll(name);
    return values.length === 1 && typeof values[0] === "string" ? values[0] : null;
  };
  if (act === AUDIENCE_SAVE) {
    const name = text("audience_name");
    const filter = text("audience_filter");
    if (name === null || filter === null)
      return { ok: false, message: "The form was not sent as the page wrote it." };
    return { ok: true, request: { kind: "save", name, filter } };
  }
  const match = typeof act === "string" ? AUDIENCE_ACTION.exec(act) : null;
  if (!match) return { ok: false, message: "The form was not sent as the page wrote it." };
  const id = Number(match[2]);
  if (match[1] === "delete") return { ok: true, request: { kind: "delete", id } };
  const expected = text("expect");
  if (expected === null || !/^\d{1,6}$/.test(expected))
    return { ok: false, message: "The form was not sent as the page wrote it." };
  return { ok: true, request: { kind: "invite", id, expected: Number(expected) } };
}
