/**
 * The pages behind the links in waitlist mail (decision 023): /waitlist/confirm and
 * /waitlist/remove. Mail scanners open every link, so opening one only reads (the loader) and shows
 * one button; only its POST (the action) confirms or erases. A link that no longer works, however
 * it came to be (bad, expired, used), gets the same calm page. Like the waitlist form (decision 014)
 * the action's outcome is one result type, LinkResult, turned into a status and a view here.
 */
import { data, Form, Link, type AppLoadContext } from "react-router";
import { SITE } from "#src/content/site.ts";
import type { LinkPurpose, LinkResult } from "#src/features/waitlist/types.ts";
import { formText } from "#src/lib/form-text.ts";
import { failure } from "#src/lib/http-errors.ts";
import { pageMeta } from "#src/lib/meta.ts";
import { Button } from "#src/ui/button.tsx";
import { Container } from "#src/ui/container.tsx";

/** What the page shows: the button for a live link, or the outcome of pressing it. */
export type MailLinkView =
  | { kind: "ask"; maskedEmail: string; token: string }
  | { kind: "confirmed" }
  | { kind: "removed" }
  | { kind: "gone" };

/** The answer depends on the token: never kept by any cache. */
export const MAIL_LINK_HEADERS = { "Cache-Control": "private, no-store" };

const TEXT = {
  confirm: {
    title: "Confirm your address",
    ask: "Confirm that this address may join the waitlist:",
    button: "Confirm my address",
  },
  remove: {
    title: "Leave the waitlist",
    ask: "Remove this address from the waitlist? Everything it entered is erased.",
    button: "Remove me from the waitlist",
  },
} as const;

export function mailLinkMeta(purpose: LinkPurpose, args: Parameters<typeof pageMeta>[0]) {
  return [
    ...pageMeta(args, {
      title: TEXT[purpose].title,
      description: `${TEXT[purpose].title} on the ${SITE.name} waitlist.`,
      noindex: true,
    }),
    // The token never reaches another site as a Referer. Not no-referrer: a browser then sends
    // `Origin: null` with the button's POST, which the cross-site guard rightly refuses.
    { name: "referrer", content: "same-origin" },
  ];
}

/** The token as the link or the form carries it. */
function tokenOf(request: Request, form?: FormData): string {
  const posted = form ? formText(form, "token") : "";
  return posted || (new URL(request.url).searchParams.get("token") ?? "");
}

/**
 * A link that worked once or never did: the page says so and links to the waitlist. Opening it
 * answers 200: after the button's POST, React Router runs the loader again (the token is used by
 * then) and the response takes the higher status of the two, which would turn "confirmed" into a
 * 410. The POST of a used link answers 410 Gone.
 */
const gone = (status: 200 | 410) =>
  data<MailLinkView>({ kind: "gone" }, { status, headers: MAIL_LINK_HEADERS });

/** Reads only: whose link this is, never a change (a scanner's GET must change nothing). */
export async function loadMailLink(
  purpose: LinkPurpose,
  request: Request,
  context: AppLoadContext,
) {
  const token = tokenOf(request);
  let live: { maskedEmail: string } | null;
  try {
    live = await context.waitlist.checkLink(purpose, token);
  } catch {
    throw failure(
      context,
      "The waitlist is unavailable for a moment. Please try again in a minute.",
    );
  }
  if (!live) return gone(200);
  return data<MailLinkView>(
    { kind: "ask", maskedEmail: live.maskedEmail, token },
    { headers: MAIL_LINK_HEADERS },
  );
}

/** Status and view for each outcome of pressing the button. */
function mailLinkReply(result: LinkResult, context: { requestId: string }) {
  switch (result.kind) {
    case "confirmed":
    case "removed":
      return data<MailLinkView>({ kind: result.kind }, { headers: MAIL_LINK_HEADERS });
    case "gone":
      return gone(410);
    case "unavailable":
      throw failure(
        context,
        "The waitlist is unavailable for a moment. Please try again in a minute.",
      );
  }
}

/** The one POST that acts: the form's button, or a mail client's one-click unsubscribe (RFC 8058). */
export async function actOnMailLink(
  purpose: LinkPurpose,
  request: Request,
  context: AppLoadContext,
) {
  const form = await request.formData();
  const result = await context.waitlist.useLink(purpose, tokenOf(request, form), {
    clientKey: context.clientKey,
    requestId: context.requestId,
  });
  return mailLinkReply(result, context);
}

export function MailLinkPage({ purpose, view }: { purpose: LinkPurpose; view: MailLinkView }) {
  const text = TEXT[purpose];
  return (
    <Container className="py-14 sm:py-20">
      <section className="mx-auto max-w-xl rounded-2xl border border-rule bg-card p-6 sm:p-8">
        {view.kind === "ask" ? (
          <>
            <h1 className="font-serif text-3xl font-semibold tracking-tight">{text.title}</h1>
            <p className="mt-4 leading-relaxed text-ink-soft">
              {text.ask} <strong className="text-ink">{view.maskedEmail}</strong>
            </p>
            <Form method="post" className="mt-7">
              <input type="hidden" name="token" value={view.token} />
              <Button type="submit" className="w-full">
                {text.button}
              </Button>
            </Form>
          </>
        ) : view.kind === "confirmed" ? (
          <>
            <h1 className="font-serif text-3xl font-semibold tracking-tight">
              Your address is confirmed
            </h1>
            <p className="mt-4 leading-relaxed text-ink-soft">
              Thank you. You are on the {SITE.name} waitlist, and we will email you when your spot
              opens.
            </p>
          </>
        ) : view.kind === "removed" ? (
          <>
            <h1 className="font-serif text-3xl font-semibold tracking-tight">
              You have left the waitlist
            </h1>
            <p className="mt-4 leading-relaxed text-ink-soft">
              Your entry is erased, and we will not email you about the waitlist again.
            </p>
          </>
        ) : (
          <>
            <h1 className="font-serif text-3xl font-semibold tracking-tight">
              This link no longer works
            </h1>
            <p className="mt-4 leading-relaxed text-ink-soft">
              It may have been used already, or it has expired. Nothing was changed.
            </p>
          </>
        )}
        <p className="mt-7">
          <Link
            to="/waitlist"
            className="font-semibold text-ledger-dark underline-offset-4 hover:underline"
          >
            Go to the waitlist
          </Link>
        </p>
      </section>
    </Container>
  );
}
