/**
 * "Know another firm? Share this link" (decision 045): the entry's referral link, on the page that
 * thanks a person for joining and on the one that confirms their address. The link is text to copy
 * (a read-only field, selected whole when focused) and a mail to write: both work before the app
 * runs and without JavaScript, so there is no button here to wait for.
 */
import { useId } from "react";
import { SITE } from "#src/content/site.ts";

const SHARE_HEADING = "Know another firm? Share this link";

/** The mail a person may send a colleague, written by their own mail program. */
function mailTo(url: string): string {
  const subject = `${SITE.name}'s private beta`;
  const body = `I have joined the waitlist for ${SITE.name}'s private beta: ${SITE.tagline}\n\nIf your firm would like to try it, you can join here:\n${url}`;
  return `mailto:?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}

export function ShareLink({
  url,
  headingLevel,
}: {
  url: string;
  /** Its heading's level under the page's own: 2 beneath a page's title, 3 beneath a section's. */
  headingLevel: 2 | 3;
}) {
  const id = useId();
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <section
      aria-labelledby={`${id}-heading`}
      className="mt-7 rounded-xl border border-rule bg-paper p-5 text-left"
    >
      <Heading id={`${id}-heading`} className="font-serif text-xl font-semibold">
        {SHARE_HEADING}
      </Heading>
      <p id={`${id}-about`} className="mt-2 text-[0.95rem] leading-relaxed text-ink-soft">
        When someone joins through your link, we note that you sent them. It helps us see which
        firms know each other; it never moves anyone up or down the list.
      </p>
      <label htmlFor={`${id}-url`} className="mt-4 block text-sm font-semibold text-ink">
        Your link
      </label>
      <input
        id={`${id}-url`}
        type="text"
        readOnly
        value={url}
        aria-describedby={`${id}-about`}
        onFocus={(event) => event.currentTarget.select()}
        className="mt-1.5 block min-h-11 w-full rounded-md border border-rule bg-white px-3.5 font-mono text-sm text-ink focus:border-ledger focus:outline-2 focus:outline-offset-0 focus:outline-ledger"
      />
      <p className="mt-3">
        <a
          href={mailTo(url)}
          className="inline-flex min-h-6 items-center font-semibold text-ledger-dark underline underline-offset-4"
        >
          Email the link to a colleague
        </a>
      </p>
    </section>
  );
}
