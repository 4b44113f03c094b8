import { useEffect, useRef, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { landingAttribution } from "#src/features/waitlist/attribution.ts";
import { CompanyField, FullNameField } from "#src/features/waitlist/entry-fields.tsx";
import {
  HONEYPOT_FIELD,
  parseWaitlistEntry,
  WAITLIST_LIMITS,
  type FieldErrors,
} from "#src/features/waitlist/schema.ts";
import type { WaitlistReply } from "#src/features/waitlist/reply.ts";
import { formText } from "#src/lib/form-text.ts";
import { LANDING_FIELD } from "#src/lib/hydration-protocol.ts";
import { Button } from "#src/ui/button.tsx";
import { EmailField } from "#src/ui/email-field.tsx";
import { Field } from "#src/ui/field.tsx";
import { useNotify } from "#src/ui/notices.tsx";
import { ShareLink } from "#src/features/waitlist/share-link.tsx";

export const SUBMIT_ERROR = "There was an error submitting your request. Please try again.";

export type WaitlistValues = { name: string; email: string; company: string; message: string };

/** An accepted submission, as the thank-you view shows it. */
export type Joined = { paused: boolean; shareUrl: string | null };

const FIELD_ORDER = ["name", "email", "company", "message"] as const;

/**
 * The request-access form. With JavaScript it checks the fields first and posts JSON to
 * /api/waitlist, keeping what was typed if anything fails; without, it is a plain form posting to
 * /waitlist, which the server answers with the same page (errors shown, or the thank-you view).
 */
export function WaitlistForm({
  values,
  errors = {},
  formError,
  onJoined,
}: {
  values?: WaitlistValues;
  errors?: FieldErrors;
  formError?: string;
  /**
   * Told once the submission is accepted: `paused` when mail to the address is paused today, and
   * the link the person may share (decision 045).
   */
  onJoined: (joined: Joined) => void;
}) {
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>(errors);
  const [alert, setAlert] = useState(formError);
  const form = useRef<HTMLFormElement>(null);

  function focusFirstInvalid(found: FieldErrors) {
    const first = FIELD_ORDER.find((key) => found[key]);
    if (first) form.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    // The first page of the visit, as the page noted it before anything ran, is the lead's source.
    const payload = {
      ...Object.fromEntries(
        [...data.keys()]
          .filter((key) => key !== LANDING_FIELD)
          .map((key) => [key, formText(data, key)]),
      ),
      ...landingAttribution(),
    };
    const checked = parseWaitlistEntry(payload);
    if (!checked.ok) {
      setFieldErrors(checked.fieldErrors);
      setAlert("Please correct the highlighted fields.");
      focusFirstInvalid(checked.fieldErrors);
      return;
    }
    setFieldErrors({});
    setAlert(undefined);
    setBusy(true);
    try {
      const response = await fetch("/api/waitlist", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(payload),
      });
      // The one reply shape (reply.ts), the same the page's action renders without JavaScript.
      const body = (await response.json().catch(() => ({}))) as Partial<WaitlistReply>;
      if (response.ok) {
        // Paused: the thanks view says plainly that no mail was sent; no toast claims otherwise.
        const paused = body.ok === true && body.status === "paused";
        if (!paused)
          notify({
            title: "Thank you!",
            description: "You've been added to our waitlist. We'll be in touch soon.",
          });
        const shareUrl =
          body.ok === true && typeof body.shareUrl === "string" ? body.shareUrl : null;
        onJoined({ paused, shareUrl });
        return;
      }
      if (response.status === 422 && body.ok === false && body.errors) {
        setFieldErrors(body.errors);
        setAlert(body.message);
        focusFirstInvalid(body.errors);
        return;
      }
      if (response.status === 429 && body.ok === false) setAlert(body.message);
      notify({ variant: "destructive", title: "Error", description: SUBMIT_ERROR });
    } catch {
      notify({ variant: "destructive", title: "Error", description: SUBMIT_ERROR });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      ref={form}
      method="post"
      action="/waitlist"
      noValidate
      onSubmit={(e) => void handleSubmit(e)}
      className="space-y-5"
    >
      {alert ? (
        <p
          role="alert"
          className="rounded-md border border-danger/30 bg-danger-soft px-4 py-3 text-sm font-medium text-danger"
        >
          {alert}
        </p>
      ) : null}
      <FullNameField error={fieldErrors.name} defaultValue={values?.name} />
      <EmailField error={fieldErrors.email} defaultValue={values?.email} />
      <CompanyField error={fieldErrors.company} defaultValue={values?.company} />
      <Field
        label="Tell us about your use case"
        hint="Optional: your practice, the work you would hand to the agent, your busy season."
        error={fieldErrors.message}
      >
        {(props) => (
          <textarea
            {...props}
            name="message"
            rows={4}
            maxLength={WAITLIST_LIMITS.message}
            defaultValue={values?.message}
            className={`${props.className} py-2.5`}
          />
        )}
      </Field>
      {/* Filled in by the page's loader when the form is sent before the app is ready. */}
      <input type="hidden" name={LANDING_FIELD} defaultValue="" />
      <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
        <label>
          Leave this field empty
          <input
            type="text"
            name={HONEYPOT_FIELD}
            tabIndex={-1}
            autoComplete="off"
            defaultValue=""
          />
        </label>
      </div>
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? "Submitting..." : "Join Waitlist"}
      </Button>
      <p className="text-center text-sm leading-relaxed text-ink-soft">
        We use these details only to contact you about access. See our{" "}
        <Link
          to="/privacy-policy"
          className="font-medium text-ledger-dark underline underline-offset-4"
        >
          Privacy Policy
        </Link>
        .
      </p>
    </form>
  );
}

/**
 * The view after an accepted submission. The words are the same for a new address and one already
 * on the list; `paused` (decision 036) says that no mail was sent, and never that one is coming.
 */
export function WaitlistThanks({ paused, shareUrl }: Joined) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="text-center">
      <span
        aria-hidden="true"
        className="mx-auto flex size-12 items-center justify-center rounded-full bg-ledger-soft text-2xl text-ledger-dark"
      >
        ✓
      </span>
      <h2
        id="waitlist-done"
        ref={heading}
        tabIndex={-1}
        className="mt-4 font-serif text-2xl font-semibold outline-none"
      >
        You&apos;re on the list!
      </h2>
      <p className="mt-3 leading-relaxed text-ink-soft">
        Thank you for your interest. We are onboarding firms in small groups and will email you when
        your spot opens.
      </p>
      {paused ? (
        <p className="mt-3 rounded-md border border-rule bg-ledger-soft px-4 py-3 leading-relaxed text-ink">
          <strong>Mail to this address is paused for today.</strong> It has had as many confirmation
          mails from this form as we send in a day, so we have not sent one now. If the address
          still needs confirming, submit this form again tomorrow and we will send the link then.
        </p>
      ) : (
        <p className="mt-3 leading-relaxed text-ink-soft">
          If this address still needs confirming, a confirmation mail is on its way, unless a link
          we sent it earlier still works: please open the link to confirm your address. If it was
          confirmed already, it keeps its place and no mail is sent.
        </p>
      )}
      {shareUrl ? <ShareLink url={shareUrl} headingLevel={3} /> : null}
      <Button asChild className="mt-7 w-full">
        <Link to="/login">Back to Login</Link>
      </Button>
    </div>
  );
}
