/**
 * The pages behind the links in waitlist mail (decision 023): /waitlist/confirm and
 * /waitlist/remove. Mail scanners open every link, so opening one only reads (the loader) and shows
 * one button; only its POST (the action) confirms or erases. A link that no longer works, however
 * it came to be (bad, expired, used), gets the same calm page. Like the waitlist form (decision 014)
 * the action's outcome is one result type, LinkResult, turned into a status and a view here.
 */
import type { LoadContext } from "#src/load-context.ts";
import { SITE } from "#src/content/site.ts";
import { CompanyField, FullNameField } from "#src/features/waitlist/entry-fields.tsx";
import type { EntryDetails, FieldErrors } from "#src/features/waitlist/schema.ts";
import type { LinkPurpose, LinkResult } from "#src/features/waitlist/types.ts";
import { formText } from "#src/lib/form-text.ts";
import { mailLinkMeta as linkPageMeta, readMailLink, spendMailLink } from "#src/lib/mail-link.ts";
import type { pageMeta } from "#src/lib/meta.ts";
import { FormAlert } from "#src/ui/form-alert.tsx";
import { GoneLinkCard, MailLinkCard } from "#src/ui/mail-link-card.tsx";
import { PRODUCT_NEWS_FIELD, ProductNewsBox } from "#src/ui/product-news-box.tsx";
import { QuestionsForm } from "#src/features/waitlist/questions-form.tsx";
import { ShareLink } from "#src/features/waitlist/share-link.tsx";

/**
 * What the page shows: the button for a live link, or the outcome of pressing it. A confirm
 * link's page also shows the name and company as they were typed, in fields its owner may correct
 * (`details`); sent back with `errors` when a correction did not pass the schema.
 */
export type MailLinkView =
  | {
      kind: "ask";
      maskedEmail: string;
      joined: boolean;
      token: string;
      details?: EntryDetails;
      errors?: Pick<FieldErrors, "name" | "company">;
      /** The product news box as it was sent, when the form comes back with errors. */
      productNews?: boolean;
    }
  | { kind: "confirmed"; answersToken?: string; shareUrl?: string }
  | { kind: "removed" }
  | { kind: "member" }
  | { kind: "gone" };

const TEXT = {
  confirm: {
    title: "Confirm your address",
    ask: "Confirm that this address may join the waitlist:",
    button: "Confirm my address",
  },
  remove: {
    title: "Leave the waitlist",
    ask: "Remove this address from the waitlist, with everything it entered:",
    button: "Remove me from the waitlist",
  },
} as const;

export function mailLinkMeta(purpose: LinkPurpose, args: Parameters<typeof pageMeta>[0]) {
  return linkPageMeta(args, {
    title: TEXT[purpose].title,
    description: `${TEXT[purpose].title} on the ${SITE.name} waitlist.`,
  });
}

/** What the questions after confirming are for, said before them. */
const QUESTIONS_INVITE =
  "A few questions help us choose the firms to invite first. Each one is optional, and you can change your answers later from the link in our next mail.";

const UNAVAILABLE = "The waitlist is unavailable for a moment. Please try again in a minute.";

/** Reads only: whose link this is, never a change (a scanner's GET must change nothing). */
export function loadMailLink(purpose: LinkPurpose, request: Request, context: LoadContext) {
  return readMailLink(
    request,
    context,
    (token) => context.waitlist.checkLink(purpose, token),
    UNAVAILABLE,
  );
}

/**
 * The one POST that acts: the form's button, or a mail client's one-click unsubscribe (RFC 8058).
 * The confirm page's form carries the name and company its owner checked: saved with the
 * confirmation, or, when they do not pass the schema, sent back with their errors (422) and
 * nothing done. A post without them (an older page, a script with the link) confirms as it is.
 */
export function actOnMailLink(purpose: LinkPurpose, request: Request, context: LoadContext) {
  return spendMailLink(
    request,
    context,
    async (
      token,
      client,
      form,
    ): Promise<Exclude<LinkResult, { kind: "invalid" }> | MailLinkView> => {
      const corrections =
        purpose === "confirm" && (form.has("name") || form.has("company"))
          ? { name: formText(form, "name"), company: formText(form, "company") }
          : undefined;
      const productNews = form.get(PRODUCT_NEWS_FIELD) === "yes";
      const result = await context.waitlist.useLink(purpose, token, client, corrections, {
        productNews,
      });
      if (result.kind !== "invalid") return result;
      return {
        kind: "ask",
        maskedEmail: result.maskedEmail,
        joined: false,
        token,
        details: result.values,
        errors: result.fieldErrors,
        productNews,
      };
    },
    UNAVAILABLE,
    (view) => (view.kind === "ask" ? 422 : 200),
  );
}

export function MailLinkPage({ purpose, view }: { purpose: LinkPurpose; view: MailLinkView }) {
  const text = TEXT[purpose];
  const back = { to: "/waitlist", label: "Go to the waitlist" };
  switch (view.kind) {
    case "ask":
      if (purpose === "remove" && view.joined) return <JoinedCard />;
      return (
        <MailLinkCard
          title={text.title}
          action={{
            token: view.token,
            label: text.button,
            fields:
              purpose === "confirm" ? (
                <>
                  {view.details ? (
                    <DetailsFields details={view.details} errors={view.errors ?? {}} />
                  ) : null}
                  <ProductNewsBox checked={view.productNews} />
                </>
              ) : undefined,
          }}
          back={back}
        >
          {text.ask} <strong className="text-ink">{view.maskedEmail}</strong>
          {view.details
            ? ". This is the name and company the form was sent with: correct them if they are not yours before you confirm."
            : null}
        </MailLinkCard>
      );
    case "confirmed":
      return (
        <MailLinkCard
          title="Your address is confirmed"
          back={back}
          more={
            <>
              {view.answersToken ? <QuestionsForm token={view.answersToken} answers={{}} /> : null}
              {view.shareUrl ? <ShareLink url={view.shareUrl} headingLevel={2} /> : null}
            </>
          }
        >
          Thank you. You are on the {SITE.name} waitlist, and we will email you when your spot
          opens.
          {view.answersToken ? ` ${QUESTIONS_INVITE}` : null}
        </MailLinkCard>
      );
    case "removed":
      return (
        <MailLinkCard title="You have left the waitlist" back={back}>
          Your entry is erased, and we will not email you about the waitlist again.
        </MailLinkCard>
      );
    case "member":
      return <JoinedCard />;
    case "gone":
      return <GoneLinkCard back={back} />;
  }
}

/**
 * The entry's name and company as typed, for its owner to check: the waitlist form's own labels
 * and limits. Shown only behind a live confirm link, which was mailed to the address.
 */
function DetailsFields({
  details,
  errors,
}: {
  details: EntryDetails;
  errors: Pick<FieldErrors, "name" | "company">;
}) {
  return (
    <>
      <FormAlert
        message={
          errors.name || errors.company ? "Please correct the highlighted fields." : undefined
        }
      />
      <FullNameField error={errors.name} defaultValue={details.name} />
      <CompanyField error={errors.company} defaultValue={details.company ?? ""} />
    </>
  );
}

/** A remove link whose entry has joined: nothing to remove here, the account holds it. */
function JoinedCard() {
  return (
    <MailLinkCard
      title={`You have joined ${SITE.name}`}
      back={{ to: "/account", label: "Go to your account" }}
    >
      Your waitlist entry became part of your account when you joined, so there is nothing to remove
      here. To download or delete what we hold about you, sign in and open your account.
    </MailLinkCard>
  );
}
