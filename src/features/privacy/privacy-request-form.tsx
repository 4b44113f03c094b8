/**
 * The privacy request form of /privacy-request (decision 030): a plain form that works without
 * JavaScript (the page's action answers it) and gives every address the same answer.
 */
import { data, Form, useNavigation } from "react-router";
import { SITE } from "#src/content/site.ts";
import {
  PRIVACY_LINK_DAYS,
  type PrivacyRequestField,
  type PrivacyRequestInput,
  type PrivacyRequestKind,
  type SubmitPrivacyRequestResult,
} from "#src/lib/privacy-requests.ts";
import { Button } from "#src/ui/button.tsx";
import { EmailField } from "#src/ui/email-field.tsx";
import { Field } from "#src/ui/field.tsx";
import { FormAlert } from "#src/ui/form-alert.tsx";

export type PrivacyRequestReply =
  | { ok: true }
  | {
      ok: false;
      values: PrivacyRequestInput;
      errors: Partial<Record<PrivacyRequestField, string>>;
      formError?: string;
    };

const HEADERS = { "Cache-Control": "no-store" };

/**
 * What the page says when the mailbox has had its confirmation mails from this form for today
 * (decision 036): plainly that nothing was sent or kept, never "check your inbox".
 */
const PRIVACY_PAUSED_MESSAGE = `Mail to this address is paused for today: it has had as many privacy request mails as we send in a day, so this request was not sent or saved. Please try again tomorrow, or write to ${SITE.contactEmail}.`;

/** Status and view for each outcome; nobody learns from either whether an address is known. */
export function privacyRequestReply(
  result: SubmitPrivacyRequestResult,
  values: PrivacyRequestInput,
) {
  switch (result.kind) {
    case "accepted":
      return data<PrivacyRequestReply>({ ok: true }, { status: 202, headers: HEADERS });
    case "invalid":
      return data<PrivacyRequestReply>(
        {
          ok: false,
          values,
          errors: result.errors,
          formError: "Please correct the highlighted fields.",
        },
        { status: 422, headers: HEADERS },
      );
    case "paused":
      return data<PrivacyRequestReply>(
        { ok: false, values, errors: {}, formError: PRIVACY_PAUSED_MESSAGE },
        { status: 429, headers: { ...HEADERS, "Retry-After": String(result.retryAfterSeconds) } },
      );
    case "rate-limited":
      return data<PrivacyRequestReply>(
        {
          ok: false,
          values,
          errors: {},
          formError: "Too many requests. Please wait a minute and try again.",
        },
        { status: 429, headers: { ...HEADERS, "Retry-After": String(result.retryAfterSeconds) } },
      );
    case "unavailable":
      return data<PrivacyRequestReply>(
        {
          ok: false,
          values,
          errors: {},
          formError: "Requests cannot be taken for a moment. Please try again in a minute.",
        },
        { status: 503, headers: { ...HEADERS, "Retry-After": "30" } },
      );
  }
}

const KIND_LABELS: Record<PrivacyRequestKind, { label: string; hint: string }> = {
  access: {
    label: "A copy of my data",
    hint: "We email you what we hold under the address, as a file and in brief.",
  },
  deletion: {
    label: "Delete my data",
    hint: "We erase the waitlist entry, subscriptions and any account that use the address.",
  },
  correction: {
    label: "Correct my data",
    hint: "Say below what is wrong; a person makes the change and tells you.",
  },
};

const KINDS = Object.keys(KIND_LABELS) as PrivacyRequestKind[];

export function PrivacyRequestForm({ reply }: { reply: PrivacyRequestReply | undefined }) {
  const busy = useNavigation().state === "submitting";
  if (reply?.ok)
    return (
      <div role="status" className="rounded-xl border border-rule bg-ledger-soft p-5">
        <p className="font-semibold text-ink">Check your inbox</p>
        <p className="mt-1.5 text-ink-soft">
          We have sent a mail to the address you gave. Nothing is done until you press the button
          behind its link, so that only the owner of the address can make the request. The link
          works for {PRIVACY_LINK_DAYS} days.
        </p>
      </div>
    );
  const values = reply?.values;
  const errors = reply?.errors ?? {};
  return (
    <Form method="post" className="max-w-xl space-y-5">
      <FormAlert message={reply?.formError} />
      <fieldset
        className="space-y-3"
        aria-describedby={errors.kind ? "privacy-kind-error" : undefined}
      >
        <legend className="text-sm font-semibold text-ink">What are you asking for?</legend>
        {KINDS.map((kind) => (
          <div
            key={kind}
            className="flex gap-3 rounded-lg border border-rule bg-white p-3.5 has-[:checked]:border-ledger has-[:checked]:bg-ledger-soft"
          >
            <input
              id={`privacy-kind-${kind}`}
              type="radio"
              name="kind"
              value={kind}
              required
              defaultChecked={values?.kind === kind}
              aria-describedby={`privacy-kind-${kind}-hint`}
              className="size-6 shrink-0 accent-ledger"
            />
            <div>
              <label
                htmlFor={`privacy-kind-${kind}`}
                className="block cursor-pointer font-semibold text-ink"
              >
                {KIND_LABELS[kind].label}
              </label>
              <p id={`privacy-kind-${kind}-hint`} className="text-sm text-ink-soft">
                {KIND_LABELS[kind].hint}
              </p>
            </div>
          </div>
        ))}
        {errors.kind ? (
          <p id="privacy-kind-error" className="text-sm font-medium text-danger">
            {errors.kind}
          </p>
        ) : null}
      </fieldset>
      <EmailField
        label="Email address"
        hint="The address the request is about. The confirmation mail goes to it."
        error={errors.email}
        defaultValue={values?.email}
      />
      <Field label="Your name" error={errors.name}>
        {(props) => (
          <input
            {...props}
            type="text"
            name="name"
            required
            maxLength={200}
            autoComplete="name"
            defaultValue={values?.name}
          />
        )}
      </Field>
      <Field
        label="Details (optional)"
        hint="For a correction, what is wrong and what it should say."
        error={errors.details}
      >
        {(props) => (
          <textarea
            {...props}
            name="details"
            rows={4}
            maxLength={2000}
            defaultValue={values?.details}
            className={`${props.className} py-2.5`}
          />
        )}
      </Field>
      <Button type="submit" disabled={busy}>
        {busy ? "Sending..." : "Send request"}
      </Button>
    </Form>
  );
}
