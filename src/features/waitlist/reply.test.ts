import { describe, expect, test } from "vitest";
import { waitlistReply } from "#src/features/waitlist/reply.ts";
import {
  parseWaitlistEntry,
  WAITLIST_PAUSED,
  WAITLIST_SUCCESS,
} from "#src/features/waitlist/schema.ts";

describe("waitlistReply: one answer per outcome, for the JSON API and the page alike", () => {
  test("a new address, one already listed and a bot get the same status and body (nothing to enumerate)", () => {
    const shareUrl = "https://tieout.ai/waitlist?ref=0123456789abcdef";
    const created = waitlistReply({ kind: "created", shareUrl });
    expect(created).toMatchObject({ status: 202, body: { ...WAITLIST_SUCCESS, shareUrl } });
    expect(waitlistReply({ kind: "exists", shareUrl })).toEqual(created);
    expect(waitlistReply({ kind: "ignored", shareUrl })).toEqual(created);
  });

  test("paused mail is accepted but says so, and never claims a mail was sent", () => {
    const paused = waitlistReply({ kind: "paused", shareUrl: null });
    expect(paused).toMatchObject({ status: 202, body: { ...WAITLIST_PAUSED, shareUrl: null } });
    expect(paused.body).toMatchObject({ ok: true, status: "paused" });
    expect(paused.body.message).toMatch(/paused for today/);
    expect(paused.body.message).not.toMatch(/we've emailed|is on its way|check your inbox/i);
    expect(waitlistReply({ kind: "created", shareUrl: null }).body).toMatchObject({
      status: "accepted",
    });
  });

  test("invalid fields come back with the schema's own messages", () => {
    const parsed = parseWaitlistEntry({ name: "", email: "not an email", message: 7 });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    const reply = waitlistReply({ kind: "invalid", ...parsed });
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual({
      ok: false,
      message: "Please correct the highlighted fields.",
      errors: {
        name: "Please enter your name.",
        email: "Please enter a valid email address.",
        message: expect.any(String) as string,
      },
      formErrors: [],
    });
  });

  test("a refusal and an outage say when to try again, and nothing is ever cached", () => {
    const limited = waitlistReply({ kind: "rate-limited", retryAfterSeconds: 42 });
    expect(limited.status).toBe(429);
    expect(limited.headers).toEqual({ "Cache-Control": "no-store", "Retry-After": "42" });
    const down = waitlistReply({ kind: "unavailable" });
    expect(down.status).toBe(503);
    expect(down.headers["Retry-After"]).toBe("30");
  });
});
