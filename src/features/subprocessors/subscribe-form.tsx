import { data, Form, useNavigation } from "react-router";
import type { SubscribeResult } from "#src/lib/subprocessor-subscriptions.ts";
import { Button } from "#src/ui/button.tsx";
import { EmailField } from "#src/ui/email-field.tsx";
import { FormAlert } from "#src/ui/form-alert.tsx";

/** What the page shows after a post: the same "check your inbox" for a new and a known address. */
export type SubscribeReply =
  { ok: true } | { ok: false; email: string; fieldError?: string; formError?: string };

const HEADERS = { "Cache-Control": "no-store" };

/**
 * What the page says when the mailbox has had its confirmation mails from this form for today
 * (decision 036), alike for a new and a known address: nothing was sent, never "check your inbox".
 */
const SUBSCRIBE_PAUSED_MESSAGE =
  "Mail to this address is paused for today: it has had as many subscription mails as we send in a day, so we have not sent one now. Please try again tomorrow.";

/** Status and view for each outcome; nobody learns from either whether an address subscribes. */
export function subscribeReply(result: SubscribeResult, email: string) {
  switch (result.kind) {
    case "accepted":
      return data<SubscribeReply>({ ok: true }, { status: 202, headers: HEADERS });
    case "invalid":
      return data<SubscribeReply>(
        { ok: false, email, fieldError: result.message },
        { status: 422, headers: HEADERS },
      );
    case "paused":
      return data<SubscribeReply>(
        { ok: false, email, formError: SUBSCRIBE_PAUSED_MESSAGE },
        { status: 429, headers: { ...HEADERS, "Retry-After": String(result.retryAfterSeconds) } },
      );
    case "rate-limited":
      return data<SubscribeReply>(
        { ok: false, email, formError: "Too many requests. Please wait a minute and try again." },
        {
          status: 429,
          headers: { ...HEADERS, "Retry-After": String(result.retryAfterSeconds) },
        },
      );
    case "unavailable":
      return data<SubscribeReply>(
        {
          ok: false,
          email,
          formError: "Subscriptions are unavailable for a moment. Please try again in a minute.",
        },
        { status: 503, headers: { ...HEADERS, "Retry-After": "30" } },
      );
  }
}

/**
 * The subscription to changes: one email field and a button, a plain form that works without
 * JavaScript (the page's action answers it). The address is confirmed by a link in a mail.
 */
export function SubscribeForm({ reply }: { reply: SubscribeReply | undefined }) {
  const busy = useNavigation().state === "submitting";
  if (reply?.ok)
    return (
      <div role="status" className="rounded-xl border border-rule bg-ledger-soft p-5">
        <p className="font-semibold text-ink">Check your inbox</p>
        <p className="mt-1.5 text-ink-soft">
          If this address is not subscribed yet, a mail with a confirmation link is on its way. The
          subscription starts when you press the button behind that link.
        </p>
      </div>
    );
  return (
    <Form method="post" className="max-w-md space-y-4">
      <FormAlert message={reply?.formError} />
      <EmailField
        label="Email address"
        hint="We mail you once per change. Every notice has a one-click unsubscribe link."
        error={reply?.fieldError}
        defaultValue={reply?.email}
      />
      <Button type="submit" disabled={busy}>
        {busy ? "Subscribing..." : "Subscribe to changes"}
      </Button>
    </Form>
  );
}
