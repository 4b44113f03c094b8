/**
 * What every page behind a link in a mail shares (decision 023): opening the link only reads and
 * shows one button (mail scanners open every link); the button's POST, or a mail client's one-click
 * unsubscribe (RFC 8058), acts. The waitlist's pages, the sub-processor subscription's and the
 * privacy request's use it.
 */
import { data, type MetaDescriptor } from "react-router";
import type { LoadContext } from "#src/load-context.ts";
import { formText } from "#src/lib/form-text.ts";
import { failure } from "#src/lib/http-errors.ts";
import { pageMeta } from "#src/lib/meta.ts";

/** The answer depends on the token: never kept by any cache. */
export const MAIL_LINK_HEADERS = { "Cache-Control": "private, no-store" };

/** The token as the form or the link carries it. */
function mailLinkToken(request: Request, form?: FormData): string {
  const posted = form ? formText(form, "token") : "";
  return posted || (new URL(request.url).searchParams.get("token") ?? "");
}

/** Title and description, kept out of search engines, and a referrer policy for the token. */
export function mailLinkMeta(
  args: Parameters<typeof pageMeta>[0],
  page: { title: string; description: string },
): MetaDescriptor[] {
  return [
    ...pageMeta(args, { ...page, noindex: true }),
    // The token never reaches another site as a Referer. Not no-referrer: a browser then sends
    // `Origin: null` with the button's POST, which the cross-site guard rightly refuses.
    { name: "referrer", content: "same-origin" },
  ];
}

/**
 * A link that worked once or never did: the page says so. Opening it answers 200: after the
 * button's POST, React Router runs the loader again (the token is used by then) and the response
 * takes the higher status of the two, which would turn a success into a 410. The POST of a used
 * link answers 410 Gone.
 */
function goneLink(status: 200 | 410) {
  return data({ kind: "gone" as const }, { status, headers: MAIL_LINK_HEADERS });
}

/**
 * The loader of a link's page. Reads only (a scanner's GET must change nothing): `check` says
 * whose link it is while it works; the page then shows its one button, carrying the token.
 * `unavailable` is the sentence of the 503 when the check cannot be made.
 */
export async function readMailLink<Live extends object>(
  request: Request,
  context: LoadContext,
  check: (token: string) => Promise<Live | null>,
  unavailable: string,
) {
  const token = mailLinkToken(request);
  let live: Live | null;
  try {
    live = await check(token);
  } catch {
    throw failure(context, unavailable);
  }
  if (!live) return goneLink(200);
  return data({ kind: "ask" as const, ...live, token }, { headers: MAIL_LINK_HEADERS });
}

/** Who pressed the button, as the stores record and rate-limit it. */
type LinkClient = { clientKey: string; clientAddress: string; requestId: string };

/**
 * The action of a link's page: the button's POST, or a mail client's one-click unsubscribe (RFC
 * 8058). `spend` uses the token, once, for `client`, with the rest of the form it was posted with;
 * what it did becomes the page's view, answered with the status `statusOf` gives it (200 unless
 * told: a form sent back with its errors is a 422). A link that no longer works answers 410 Gone,
 * and when the store cannot answer, a 503 says `unavailable`.
 */
export async function spendMailLink<Done extends { kind: string }>(
  request: Request,
  context: LoadContext,
  spend: (
    token: string,
    client: LinkClient,
    form: FormData,
  ) => Promise<Done | { kind: "gone" } | { kind: "unavailable" }>,
  unavailable: string,
  statusOf: (done: Done) => number = () => 200,
) {
  const { clientKey, clientAddress, requestId } = context;
  const form = await request.formData();
  const token = mailLinkToken(request, form);
  const result = await spend(token, { clientKey, clientAddress, requestId }, form);
  if (result.kind === "gone") return goneLink(410);
  if (result.kind === "unavailable") throw failure(context, unavailable);
  // What is left is one of the outcomes `spend` reports as done.
  const done = result as Done;
  return data(done, { status: statusOf(done), headers: MAIL_LINK_HEADERS });
}
