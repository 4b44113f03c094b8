/**
 * The waitlist submission, checked the same way in the browser (early feedback) and on the server
 * (the authority). Imports nothing from Node.
 */
import { z } from "zod";
import { CONTROL_CHARACTER } from "#src/lib/form-text.ts";
import { referralCodeOf } from "#src/features/waitlist/referral.ts";

// zod would probe for eval to compile faster parsers; the site's CSP forbids eval, so don't ask.
z.config({ jitless: true });

export const WAITLIST_LIMITS = {
  name: 200,
  email: 254,
  company: 200,
  message: 5000,
  attribution: 500,
} as const;

const CONTROL_CHARACTERS = new RegExp(CONTROL_CHARACTER.source, "g");

/**
 * Search text as the database can take it: no control characters (PostgreSQL refuses a NUL in a
 * string) and no lone surrogates (not UTF-8). What is left may match nothing, never fail.
 */
export function searchableText(text: string, max = 200): string {
  return text
    .toWellFormed()
    .replace(CONTROL_CHARACTERS, "")
    .replace(/\t|\n|\r/g, " ")
    .trim()
    .slice(0, max);
}

/**
 * Typed text, at most `max` characters without control characters. A one-line field (a name, a
 * company) has its line breaks and runs of spaces made one space: it is shown on one line, in the
 * admin's list and in a mail's greeting, where a typed line break could start a paragraph of
 * someone else's choosing.
 */
const text = (field: string, max: number, lines: "one" | "many" = "one") =>
  z
    .string({ error: `${field} must be text.` })
    .transform((v) => (lines === "one" ? v.replace(/\s+/g, " ") : v).trim())
    .pipe(
      z
        .string()
        .max(max, `${field} must be at most ${max.toLocaleString("en-US")} characters.`)
        .refine(
          (v) => !CONTROL_CHARACTER.test(v),
          `${field} contains characters that cannot be saved (control characters).`,
        ),
    );

const optionalText = (field: string, max: number, lines: "one" | "many" = "one") =>
  text(field, max, lines)
    .nullish()
    .transform((v) => (v ? v : null));

/**
 * Where a lead came from: kept when it can be, never a reason to refuse the lead. It comes from
 * link parameters nobody at the firm typed, so it is cleaned and cut to length rather than checked.
 */
const attribution = (max: number) =>
  z
    .unknown()
    .optional()
    .transform((v) => {
      if (typeof v !== "string") return null;
      return v.replace(CONTROL_CHARACTERS, "").trim().slice(0, max) || null;
    });

const WaitlistEntrySchema = z.object({
  name: text("Full name", WAITLIST_LIMITS.name).refine((v) => v !== "", "Please enter your name."),
  email: z
    .string({ error: "Email must be text." })
    .trim()
    .max(WAITLIST_LIMITS.email, `Email must be at most ${WAITLIST_LIMITS.email} characters.`)
    .pipe(z.email("Please enter a valid email address.")),
  company: optionalText("Company", WAITLIST_LIMITS.company),
  message: optionalText("Use case", WAITLIST_LIMITS.message, "many"),
  utm_source: attribution(WAITLIST_LIMITS.attribution),
  utm_medium: attribution(WAITLIST_LIMITS.attribution),
  utm_campaign: attribution(WAITLIST_LIMITS.attribution),
  utm_term: attribution(WAITLIST_LIMITS.attribution),
  utm_content: attribution(WAITLIST_LIMITS.attribution),
  referrer: attribution(2000),
  landing_path: attribution(2000),
  // The code of the shared link the visit began on (decision 045): a code, or nothing.
  ref: z
    .unknown()
    .optional()
    .transform((v) => referralCodeOf(v)),
});

type WaitlistEntry = z.infer<typeof WaitlistEntrySchema>;

/** Filled only by bots: the field is hidden from people and assistive technology. */
export const HONEYPOT_FIELD = "website";

export type FieldErrors = Partial<Record<"name" | "email" | "company" | "message", string>>;

export type WaitlistParse =
  | { ok: true; entry: WaitlistEntry }
  | { ok: false; fieldErrors: FieldErrors; formErrors: string[] };

export function parseWaitlistEntry(input: unknown): WaitlistParse {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return {
      ok: false,
      fieldErrors: {},
      formErrors: ["Send the fields name, email, company and message."],
    };
  }
  const result = WaitlistEntrySchema.safeParse(input);
  if (result.success) return { ok: true, entry: result.data };
  // zod's own flattening: the first message of each visible field; anything else (an attribution
  // field, a wrong shape) is a form error naming its field.
  const flat = z.flattenError(result.error);
  const fieldErrors: FieldErrors = {};
  const formErrors = [...flat.formErrors];
  for (const [key, messages] of Object.entries<string[] | undefined>(flat.fieldErrors)) {
    const first = messages?.[0];
    if (!first) continue;
    if (key === "name" || key === "email" || key === "company" || key === "message") {
      fieldErrors[key] = first;
    } else {
      formErrors.push(`${key}: ${first}`);
    }
  }
  return { ok: false, fieldErrors, formErrors };
}

/** The entry's name and company, as its owner may correct them when confirming (decision 036). */
export type EntryDetails = { name: string; company: string | null };

export type EntryDetailsParse =
  | { ok: true; details: EntryDetails }
  | { ok: false; fieldErrors: Pick<FieldErrors, "name" | "company"> };

/**
 * The name and company from the confirm page's form, checked by the waitlist schema's own rules
 * for those two fields: the same limits, the same one-line text, the same messages.
 */
export function parseEntryDetails(input: { name: unknown; company: unknown }): EntryDetailsParse {
  const result = WaitlistEntrySchema.pick({ name: true, company: true }).safeParse(input);
  if (result.success) return { ok: true, details: result.data };
  const flat = z.flattenError(result.error).fieldErrors;
  const fieldErrors: Pick<FieldErrors, "name" | "company"> = {};
  if (flat.name?.[0]) fieldErrors.name = flat.name[0];
  if (flat.company?.[0]) fieldErrors.company = flat.company[0];
  return { ok: false, fieldErrors };
}

/**
 * The server's refusal of a throwaway address (decision 023). Its list of domains is too large for
 * the browser, so this one check runs on the server only.
 */
export const DISPOSABLE_MESSAGE =
  "Please use your work email address; throwaway addresses can't receive our invitation.";

/** The one answer for a new address and for one already on the list: nothing to enumerate. */
export const WAITLIST_SUCCESS = {
  ok: true,
  status: "accepted",
  message: "You're on the list! Please confirm your address with the link we've emailed you.",
} as const;

/**
 * The answer when the mailbox has had its confirmation mails from the waitlist for today
 * (decision 036): the same for a new address and one already on the list, and it never says a mail
 * was sent.
 */
export const WAITLIST_PAUSED = {
  ok: true,
  status: "paused",
  message:
    "You're on the list, but mail to this address is paused for today, so we have not sent a confirmation mail. If the address still needs confirming, submit this form again tomorrow and we will send the link then.",
} as const;
