import { describe, expect, test } from "vitest";
import {
  actionsFor,
  ENTRY_STATES,
  RESEND_INTERVAL_MS,
  transition,
  type EntryState,
  type LifecycleEntry,
  type LifecycleEvent,
} from "#src/features/waitlist/lifecycle.ts";

const entry = (state: EntryState, more: Partial<LifecycleEntry> = {}): LifecycleEntry => ({
  state,
  confirmed: state !== "waiting",
  lastInvitedAt: null,
  ...more,
});

/** Where each event leads from each state (an entry confirmed once, if it could have been). */
function table(event: LifecycleEvent) {
  return Object.fromEntries(
    ENTRY_STATES.map((state) => {
      const result = transition(entry(state), event);
      return [state, result.ok ? result.to : `refused: ${result.refusal}`];
    }),
  );
}

describe("the lifecycle of a waitlist entry", () => {
  test("the owner's confirmation moves a waiting entry on, and nothing else", () => {
    expect(table({ type: "confirm" })).toEqual({
      waiting: "confirmed",
      confirmed: "refused: already-confirmed",
      invited: "refused: already-invited",
      joined: "refused: already-joined",
      declined: "refused: already-declined",
    });
  });

  test("an invitation goes to a confirmed or declined entry, once; never again to one that joined", () => {
    expect(table({ type: "invite" })).toEqual({
      waiting: "refused: not-confirmed",
      confirmed: "invited",
      invited: "refused: already-invited",
      joined: "refused: already-joined",
      declined: "invited",
    });
    // Declined before its owner ever confirmed: we write to no one who did not.
    expect(transition(entry("declined", { confirmed: false }), { type: "invite" })).toEqual({
      ok: false,
      refusal: "not-confirmed",
    });
  });

  test("resending needs an invited entry and an hour since the last invitation", () => {
    const now = Date.parse("2026-11-23T12:00:00Z");
    const sentAt = (ago: number) => entry("invited", { lastInvitedAt: now - ago });
    expect(transition(sentAt(RESEND_INTERVAL_MS - 1), { type: "resend", now })).toEqual({
      ok: false,
      refusal: "too-soon",
    });
    expect(transition(sentAt(RESEND_INTERVAL_MS), { type: "resend", now })).toEqual({
      ok: true,
      to: "invited",
    });
    expect(table({ type: "resend", now })).toEqual({
      waiting: "refused: not-invited",
      confirmed: "refused: not-invited",
      invited: "invited",
      joined: "refused: already-joined",
      declined: "refused: not-invited",
    });
  });

  test("decline ends any state but joined; a second decline changes nothing", () => {
    expect(table({ type: "decline" })).toEqual({
      waiting: "declined",
      confirmed: "declined",
      invited: "declined",
      joined: "refused: already-joined",
      declined: "refused: already-declined",
    });
  });

  test("joining: an invited entry always; any other only while sign-up is open", () => {
    expect(table({ type: "join", openSignup: false })).toEqual({
      waiting: "refused: not-invited",
      confirmed: "refused: not-invited",
      invited: "joined",
      joined: "refused: already-joined",
      declined: "refused: not-invited",
    });
    expect(table({ type: "join", openSignup: true })).toEqual({
      waiting: "joined",
      confirmed: "joined",
      invited: "joined",
      joined: "refused: already-joined",
      declined: "joined",
    });
  });

  test("removal erases an entry in every state", () => {
    for (const state of ENTRY_STATES)
      expect(transition(entry(state), { type: "remove" })).toEqual({ ok: true, to: "erased" });
  });

  test("a row of the admin list offers the actions its state allows", () => {
    expect(actionsFor({ state: "waiting", confirmed: false })).toEqual(["decline", "remove"]);
    expect(actionsFor({ state: "confirmed", confirmed: true })).toEqual([
      "invite",
      "decline",
      "remove",
    ]);
    expect(actionsFor({ state: "invited", confirmed: true })).toEqual([
      "resend",
      "decline",
      "remove",
    ]);
    expect(actionsFor({ state: "joined", confirmed: true })).toEqual(["remove"]);
    expect(actionsFor({ state: "declined", confirmed: true })).toEqual(["invite", "remove"]);
    expect(actionsFor({ state: "declined", confirmed: false })).toEqual(["remove"]);
  });
});
