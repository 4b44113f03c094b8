/**
 * What every page behind a link in a mail shares (decision 023): opening the link only reads and
 * shows one button (mail scanners open every link); the button's POST, or a mail client's one-click
 * unsubscribe (RFC 8058), acts. The waitlist's pages and the sub-processor subscription's use it.
 */
import type { MetaDescriptor } from "react-router";
import { formText } from "#src/lib/form-text.ts";
import { pageMeta } from "#src/lib/meta.ts";

/** The answer depends on the token: never kept by any cache. */
export const MAIL_LINK_HEADERS = { "Cache-Control": "private, no-store" };

/** The token as the form or the link carries it. */
export function mailLinkToken(request: Request, form?: FormData): string {
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
