/**
 * A waitlist entry's way to the product (decision 024), in one place: which change each state
 * allows, and why a change is refused. Every change of an entry's state goes through `transition`:
 * the owner's confirm link, the admin's actions, the first session of an account that joins. The
 * server applies what it answers; the admin page asks it which buttons a row shows. Pure: no
 * database, no clock of its own.
 *
 *   waiting ──confirm──▶ confirmed ──invite──▶ invited ──join──▶ joined
 *      │                     │                   │  ▲
 *      └──────decline────────┴──────decline──────┘  └─resend (an hour apart)
 *                              declined ──invite (if once confirmed)──▶ invited
 *
 * Remove erases an entry in any state. A joined entry is neither invited again nor declined.
 */

export const ENTRY_STATES = ["waiting", "confirmed", "invited", "joined", "declined"] as const;
export type EntryState = (typeof ENTRY_STATES)[number];

/** An invitation may be sent again this long after the last one (Resend). */
export const RESEND_INTERVAL_MS = 60 * 60 * 1000;

/** What the lifecycle needs to know of an entry. */
export type LifecycleEntry = {
  state: EntryState;
  /** Its owner confirmed the address once (double opt-in); we write to no one who did not. */
  confirmed: boolean;
  /** When the last invitation mail was written (ms since the epoch); null when none was. */
  lastInvitedAt: number | null;
};

export type LifecycleEvent =
  /** The owner pressed the button behind the confirmation mail's link. */
  | { type: "confirm" }
  | { type: "invite" }
  | { type: "resend"; now: number }
  | { type: "decline" }
  /**
   * An account's first session, matched to this entry. With open sign-up anyone may join; in
   * invite-only mode only an invited entry.
   */
  | { type: "join"; openSignup: boolean }
  | { type: "remove" };

/** Why nothing changed. */
export type Refusal =
  | "already-confirmed"
  | "already-invited"
  | "already-joined"
  | "already-declined"
  | "not-confirmed"
  | "not-invited"
  | "too-soon";

export type Transition = { ok: true; to: EntryState | "erased" } | { ok: false; refusal: Refusal };

const to = (state: EntryState | "erased"): Transition => ({ ok: true, to: state });
const refuse = (refusal: Refusal): Transition => ({ ok: false, refusal });

/** The state an event leads to from this entry, or why it does not apply. */
export function transition(entry: LifecycleEntry, event: LifecycleEvent): Transition {
  const { state } = entry;
  switch (event.type) {
    case "confirm":
      return state === "waiting" ? to("confirmed") : refuse(`already-${state}`);
    case "invite":
      if (state === "joined" || state === "invited") return refuse(`already-${state}`);
      // An address that was never confirmed was promised no more mail (decision 023).
      return entry.confirmed ? to("invited") : refuse("not-confirmed");
    case "resend":
      if (state === "joined") return refuse("already-joined");
      if (state !== "invited") return refuse("not-invited");
      if (entry.lastInvitedAt !== null && event.now - entry.lastInvitedAt < RESEND_INTERVAL_MS)
        return refuse("too-soon");
      return to("invited");
    case "decline":
      if (state === "joined" || state === "declined") return refuse(`already-${state}`);
      return to("declined");
    case "join":
      if (state === "joined") return refuse("already-joined");
      return state === "invited" || event.openSignup ? to("joined") : refuse("not-invited");
    case "remove":
      return to("erased");
  }
}

/** The admin's actions, as the buttons of a row of the admin list. */
export type AdminAction = "invite" | "resend" | "decline" | "remove";

/**
 * The actions a row offers: those its state allows. Resend shows for every invited entry; the
 * hour between two invitations is checked when it is pressed, and said in the answer.
 */
export function actionsFor(entry: Omit<LifecycleEntry, "lastInvitedAt">): AdminAction[] {
  const known = { ...entry, lastInvitedAt: null };
  const events: Record<AdminAction, LifecycleEvent> = {
    invite: { type: "invite" },
    resend: { type: "resend", now: 0 },
    decline: { type: "decline" },
    remove: { type: "remove" },
  };
  return (Object.keys(events) as AdminAction[]).filter(
    (action) => transition(known, events[action]).ok,
  );
}
