/**
 * What the pages ask of the site's mail to the list (decision 041): unsubscribing from a kind of
 * broadcast by a mail's link, consent to product news, the suppression list and the broadcasts.
 * Served by server/mail/mail-service.ts; the admin's parts only after requireAdmin.
 */

export type BroadcastKind = "waitlist-news" | "product-news";
export type BroadcastStatus =
  "draft" | "scheduled" | "sending" | "paused" | "finished" | "cancelled";
export const AUDIENCE_STATE_CHOICES = ["confirmed", "invited", "joined"] as const;
export type AudienceState = (typeof AUDIENCE_STATE_CHOICES)[number];
/** A saved audience a broadcast also aims at, as it was when the draft was saved (decision 044). */
type SavedAudienceRef = { id: number; name: string; filter: string };
export type AudienceChoice = {
  states: AudienceState[];
  search: string;
  saved?: SavedAudienceRef | null;
};

/** Who did it and from where: every administrator action is an Activity row. */
export type MailActor = { adminEmail: string; clientAddress: string };

/** A refusal for the administrator to read, on a field when it is about one. */
export type MailRefusal = { ok: false; message: string; field?: string };

export type BroadcastSummary = {
  id: number;
  kind: BroadcastKind;
  subject: string;
  status: BroadcastStatus;
  recipients: number;
  scheduledAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  createdBy: string;
  updatedAt: string;
};

export type BroadcastDetail = BroadcastSummary & {
  body: string;
  audience: AudienceChoice;
  pausedReason: string | null;
};

export type BroadcastProgress = {
  recipients: number;
  waiting: number;
  pending: number;
  sent: number;
  failed: number;
  suppressed: number;
  unsubscribed: number;
  bounced: number;
  complained: number;
};

/** The mail as a recipient would get it, for the composer's preview. */
export type BroadcastPreview =
  { ok: true; subject: string; html: string; text: string } | MailRefusal;

export type SuppressionEntry = {
  /** Null once the address was erased: it is kept as a keyed hash alone. */
  address: string | null;
  scope: "all" | BroadcastKind;
  reason: "refused" | "hard-bounce" | "soft-bounces" | "complaint" | "unsubscribe" | "admin";
  detail: string;
  addedBy: string | null;
  createdAt: string;
};

/** A member's consent to each kind of broadcast, from the waitlist entry their account holds. */
export type MailPreferences = { waitlistNews: boolean; productNews: boolean };

/** The account whose entry it is: the one it joined from, or the one under its verified address. */
export type PreferenceOwner = { uid: string; email: string | null; emailVerified: boolean };

/** Something that came back to the bounce address, and what was made of it. */
export type BounceReport = {
  id: number;
  receivedAt: string;
  via: "imap" | "smtp";
  outcome: "recorded" | "unmatched" | "unparsed";
  /** A bounce, soft or hard, or a complaint; for one nobody could read, what the reader saw. */
  kind: string | null;
  detail: string;
  /** The message itself, for one that could not be read or named no mail of ours. */
  raw: string | null;
};

export type MailPort = {
  /** The reports of the last 30 days, newest first; those that need a person first. */
  bounceReports: (limit: number) => Promise<{ rows: BounceReport[]; needsReading: number }>;
  /** The account's consent, or null when it holds no waitlist entry. */
  preferencesOf: (owner: PreferenceOwner) => Promise<MailPreferences | null>;
  /** Sets both, recorded with when and that it was on /account; false when there is no entry. */
  setPreferences: (owner: PreferenceOwner, wanted: MailPreferences) => Promise<boolean>;

  /** A broadcast's unsubscribe link while it names an entry: whose, and which kind. */
  checkUnsubscribe: (token: string) => Promise<{ maskedEmail: string; news: BroadcastKind } | null>;
  /** Uses an unsubscribe link: the kind stops for that person. Pressing it again changes nothing. */
  unsubscribe: (
    token: string,
    place: "unsubscribe-page" | "one-click",
  ) => Promise<{ kind: "unsubscribed"; news: BroadcastKind } | { kind: "gone" }>;

  broadcasts: {
    list: () => Promise<BroadcastSummary[]>;
    get: (id: number) => Promise<BroadcastDetail | null>;
    progress: (id: number) => Promise<BroadcastProgress>;
    /** How many the audience reaches now, and how many of those are suppressed. */
    count: (
      kind: BroadcastKind,
      audience: AudienceChoice,
    ) => Promise<{ reach: number; suppressed: number }>;
    preview: (draft: { kind: string; subject: string; body: string }) => BroadcastPreview;
    save: (
      id: number | null,
      draft: { kind: string; subject: string; body: string; audience: unknown },
      actor: MailActor,
    ) => Promise<{ ok: true; id: number } | MailRefusal>;
    testSend: (id: number, actor: MailActor) => Promise<{ ok: true } | MailRefusal>;
    start: (
      id: number,
      actor: MailActor,
      at?: Date,
    ) => Promise<{ ok: true; recipients?: number } | MailRefusal>;
    pause: (id: number, actor: MailActor) => Promise<{ ok: true } | MailRefusal>;
    resume: (id: number, actor: MailActor) => Promise<{ ok: true } | MailRefusal>;
    cancel: (id: number, actor: MailActor) => Promise<{ ok: true } | MailRefusal>;
  };

  suppressions: {
    list: (options: {
      search?: string;
      limit: number;
    }) => Promise<{ rows: SuppressionEntry[]; total: number }>;
    add: (
      entry: { address: string; detail: string },
      actor: MailActor,
    ) => Promise<{ ok: true; added: boolean } | MailRefusal>;
    remove: (
      entry: { address: string; detail: string },
      actor: MailActor,
    ) => Promise<{ ok: true; removed: number } | MailRefusal>;
  };
};
