import type { AdminAction, EntryState, Refusal } from "#src/features/waitlist/lifecycle.ts";
import type { EntryDetails, FieldErrors } from "#src/features/waitlist/schema.ts";
import type { Answers } from "#src/content/qualifying-questions.ts";
import type { EntryFilter } from "#src/features/waitlist/entry-filter.ts";

/** What the server's waitlist service answers; the page action and the JSON API both map it. */
/**
 * An accepted submission's link to share (decision 045): the address's entry's referral link, the
 * same whether the entry is new or was there before. Null only when the entry was erased as it was
 * written.
 */
type Shared = { shareUrl: string | null };

export type SubmitResult =
  | ({ kind: "created" } & Shared)
  | ({ kind: "exists" } & Shared)
  /**
   * Stored (or already there), but the mailbox has had its confirmation mails from the waitlist
   * for today: nothing is mailed now. Decided before the address is looked up (decision 036).
   */
  | ({ kind: "paused" } & Shared)
  /** The honeypot was filled: answered like a success (a link that names nobody), nothing stored. */
  | ({ kind: "ignored" } & Shared)
  | { kind: "invalid"; fieldErrors: FieldErrors; formErrors: string[] }
  | { kind: "rate-limited"; retryAfterSeconds: number }
  | { kind: "unavailable" };

/**
 * What pressing the button behind a mail's link did; "gone": the link no longer works; "member":
 * a remove link whose entry has joined, which it leaves to the account (decision 029).
 */
export type LinkResult =
  /**
   * Confirmed; `answersToken` opens the qualifying questions, when its entry may answer them, and
   * `shareUrl` is the entry's referral link (decision 045).
   */
  | { kind: "confirmed"; answersToken?: string; shareUrl?: string }
  /**
   * The confirm link's corrections did not pass the schema: nothing was confirmed or saved, and
   * the link still works. What was typed comes back with a message per field.
   */
  | {
      kind: "invalid";
      maskedEmail: string;
      values: { name: string; company: string };
      fieldErrors: Pick<FieldErrors, "name" | "company">;
    }
  | { kind: "removed" }
  | { kind: "member" }
  | { kind: "gone" }
  | { kind: "unavailable" };

export type LinkPurpose = "confirm" | "remove";

/** Who is asking: the rate-limit key, and the request id that ties log lines together. */
export type SubmitMeta = { clientKey: string; requestId?: string };

export type AdminEntry = {
  id: number;
  createdAt: string;
  name: string;
  email: string;
  company: string | null;
  message: string | null;
  source: string | null;
  state: EntryState;
  /** When its owner confirmed the address (ISO 8601); null while never confirmed. */
  confirmedAt: string | null;
  /** When the last invitation mail was written; null when none was. */
  inviteSentAt: string | null;
  forwardStatus: "none" | "pending" | "sent" | "failed";
  forwardAttempts: number;
  forwardLastError: string | null;
  /** The qualifying questions' answers (decision 043); empty when none were given. */
  answers: Answers;
  /** The address of the entry whose shared link brought this one (decision 045). */
  referredBy: string | null;
  /** How many entries came through this entry's shared link. */
  referrals: number;
};

/**
 * Where a page of the admin list starts: after (older than) or before (newer than) the entry a
 * cursor names. Cursors are opaque to the page: it only hands back the ones it was given.
 */
export type ListPosition = { after: string } | { before: string } | null;

export type AdminListQuery = {
  /** Which entries: every one is ANY_ENTRY (decision 044). */
  filter: EntryFilter;
  position: ListPosition;
  limit: number;
};

export type AdminListPage = {
  /** Newest first. */
  entries: AdminEntry[];
  /** How many entries there are in each state. */
  counts: Record<EntryState, number>;
  /** The cursor of the next page of older entries; null on the last page. */
  older: string | null;
  /** The cursor of the page of newer entries; null on the first page. */
  newer: string | null;
};

/** What an admin asked for: an action on one entry, or on those selected. */
export type AdminActionRequest = {
  action: AdminAction;
  ids: number[];
  /** Decline only: the entries whose owner is told, by mail. */
  tell: number[];
};

/** What happened to one entry: a change, or why there was none. */
export type ActionOutcome =
  | "invited"
  | "resent"
  | "declined"
  | "declined-told"
  | "removed"
  /** Declined, but not told: the address was never confirmed, so no mail is sent to it. */
  | "declined-not-told"
  /** Not on the list any more (removed meanwhile, or never there). */
  | "gone"
  | Refusal;

export type AdminActionResult =
  | { kind: "done"; action: AdminAction; outcomes: Partial<Record<ActionOutcome, number>> }
  | { kind: "unavailable" };

/** Who acted, from where: what the audit log keeps of an admin's request. */
export type AdminMeta = { adminEmail: string; clientAddress: string; requestId: string };

export type WaitlistPort = {
  submit: (input: unknown, meta: SubmitMeta) => Promise<SubmitResult>;
  /** A page of the admin list (keyset pagination, newest first). */
  list: (query: AdminListQuery) => Promise<AdminListPage>;
  /** Applies an admin's action to each entry named, in one transaction with its audit rows. */
  act: (request: AdminActionRequest, meta: AdminMeta) => Promise<AdminActionResult>;
  /** The invited address behind a live invitation link; null when it no longer works. Reads only. */
  checkInvitation: (token: string) => Promise<{ email: string } | null>;
  /**
   * Whose link this is while it works (the address masked), and whether its entry has joined (an
   * account holds it); null otherwise. A confirm link also gives the name and company as typed,
   * for its owner to check: only the owner of the mailbox has that link. Reads only.
   */
  checkLink: (
    purpose: LinkPurpose,
    token: string,
  ) => Promise<{ maskedEmail: string; joined: boolean; details?: EntryDetails } | null>;
  /**
   * Uses the link once: confirms or erases the entry. A confirm link may carry the owner's
   * corrections of the name and company, as typed: checked by the waitlist schema and saved in
   * the transaction that confirms (none given: the entry keeps what it has).
   */
  useLink: (
    purpose: LinkPurpose,
    token: string,
    meta: SubmitMeta,
    corrections?: { name: string; company: string },
    /** A confirm link's page: whether its owner ticked "Also send me product news". */
    consent?: { productNews: boolean },
  ) => Promise<LinkResult>;
  /**
   * Whose qualifying answers a link opens (the address masked) and the answers so far, while it
   * works; null otherwise (decision 043). Reads only.
   */
  checkAnswers: (token: string) => Promise<AnswersLink | null>;
  /** Saves the answers behind a working link, in place of the ones before. */
  saveAnswers: (token: string, answers: Answers) => Promise<"saved" | "gone" | "unavailable">;
  /** Saved audiences (decision 044); ask only after requireAdmin. */
  audiences: AudiencesPort;
};

/** A saved audience as the admin list shows it (decision 044). */
export type SavedAudience = {
  id: number;
  name: string;
  /** The filter's one spelling: the list's address text. */
  filter: string;
  createdBy: string;
  createdAt: string;
  /** How many entries it holds now. */
  entries: number;
  /** How many of them an invitation batch would invite: the confirmed ones. */
  invitable: number;
};

/** What saving, deleting or a refused batch says. */
export type AudienceReply = { ok: true; message: string } | { ok: false; message: string };

/** The saved audiences, for administrators only. */
type AudiencesPort = {
  list: () => Promise<SavedAudience[]>;
  /** Their ids and names alone, for the broadcast composer's list. */
  names: () => Promise<{ id: number; name: string }[]>;
  get: (id: number) => Promise<{ name: string; filter: string } | null>;
  save: (name: string, filter: EntryFilter, meta: AdminMeta) => Promise<AudienceReply>;
  remove: (id: number, meta: AdminMeta) => Promise<AudienceReply>;
  /** Invites its confirmed entries when `expected` is how many there are now (at most 500). */
  invite: (
    id: number,
    expected: number,
    meta: AdminMeta,
  ) => Promise<AudienceReply | AdminActionResult>;
};

/** What the page behind a live answers link shows. */
export type AnswersLink = { maskedEmail: string; answers: Answers };
