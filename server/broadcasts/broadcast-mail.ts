/**
 * A broadcast's mail from its stored subject and Markdown body (decision 041): the body is parsed
 * by server/mail/markdown.ts (a strict subset, no HTML) and laid out by the broadcast template,
 * HTML and plain text from the same blocks. The composer's preview is the same rendering.
 */
import { randomBytes } from "node:crypto";
import type { BROADCAST_KINDS } from "#db/schema.ts";
import { renderMarkdown } from "#server/mail/markdown.ts";
import { renderBroadcast } from "#server/mail/templates/broadcast.tsx";
import type { BroadcastPreview } from "#src/lib/mail-ports.ts";

type Kind = (typeof BROADCAST_KINDS)[number];

/** Whether a body may be sent: the Markdown parser's verdict, with its message when it may not. */
export function checkBroadcastBody(body: string): { ok: true } | { ok: false; message: string } {
  const parsed = renderMarkdown(body);
  return parsed.ok ? { ok: true } : { ok: false, message: parsed.message };
}

type Recipient = {
  name: string | undefined;
  unsubscribeUrl: string;
  removeUrl: string;
  /** The qualifying questions' link, for waitlist news to an entry that may answer them. */
  answersUrl?: string | undefined;
};
type Rendered = { subject: string; html: string; text: string };

/** As React writes text and attribute values into HTML. */
const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#x27;",
};
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/**
 * A broadcast's mail for each of its recipients. The Markdown and the layout are rendered once
 * (four times at most: with a greeting and without, with the answers link and without), with a slot of this maker's own where each
 * recipient's name and links go; each mail is then those two texts with the slots filled, the
 * name escaped as React escapes it. A turn of a send renders nothing per person, so it holds the
 * event loop for microseconds, not milliseconds (decision 042). The result is the same text
 * `renderBroadcast` writes for that person, which server/broadcasts/broadcast-mail.test.ts holds.
 */
export function broadcastMailMaker(mail: {
  subject: string;
  body: string;
  kind: Kind;
  siteUrl: string;
}): (recipient: Recipient) => Rendered {
  const parsed = renderMarkdown(mail.body);
  // A stored body was checked when it was saved; one that no longer parses is not sent.
  if (!parsed.ok) throw new Error(`broadcast body does not parse: ${parsed.message}`);
  // Letters and digits only: nothing React or the text escapes, and no body can know it.
  const slot = `tieoutslot${randomBytes(12).toString("hex")}`;
  const slots = {
    name: `${slot}name`,
    unsubscribe: `${slot}unsub`,
    remove: `${slot}remove`,
    answers: `${slot}answers`,
  };
  // By whether the greeting is there and whether the answers link is: four layouts at most.
  const layouts = new Map<string, Rendered>();
  const layout = (named: boolean, answering: boolean) => {
    const which = `${named}/${answering}`;
    let found = layouts.get(which);
    if (!found) {
      found = renderBroadcast({
        ...mail,
        blocks: parsed.blocks,
        name: named ? slots.name : undefined,
        unsubscribeUrl: slots.unsubscribe,
        removeUrl: slots.remove,
        answersUrl: answering ? slots.answers : undefined,
      });
      layouts.set(which, found);
    }
    return found;
  };
  const fill = (template: string, values: Record<string, string>) =>
    template.replace(
      new RegExp(`${slot}(name|unsub|remove|answers)`, "g"),
      (_, which: string) => values[which]!,
    );
  return (recipient) => {
    const name = recipient.name?.trim();
    const { html, text } = layout(Boolean(name), Boolean(recipient.answersUrl));
    const plain = {
      name: name ?? "",
      unsub: recipient.unsubscribeUrl,
      remove: recipient.removeUrl,
      answers: recipient.answersUrl ?? "",
    };
    return {
      subject: mail.subject,
      html: fill(html, {
        name: escapeHtml(plain.name),
        unsub: escapeHtml(plain.unsub),
        remove: escapeHtml(plain.remove),
        answers: escapeHtml(plain.answers),
      }),
      text: fill(text, plain),
    };
  };
}

/** The composer's preview: the mail as a recipient named Ada would get it, links shown inert. */
export function previewBroadcast(draft: {
  kind: string;
  subject: string;
  body: string;
}): BroadcastPreview {
  if (draft.kind !== "waitlist-news" && draft.kind !== "product-news")
    return { ok: false, field: "kind", message: "Choose waitlist news or product news." };
  const parsed = renderMarkdown(draft.body);
  if (!parsed.ok) return { ok: false, field: "body", message: parsed.message };
  const preview = "https://example.invalid/preview";
  return {
    ok: true,
    ...renderBroadcast({
      subject: draft.subject.trim(),
      blocks: parsed.blocks,
      kind: draft.kind,
      name: "Ada",
      unsubscribeUrl: preview,
      removeUrl: preview,
      answersUrl: draft.kind === "waitlist-news" ? preview : undefined,
      siteUrl: preview,
    }),
  };
}
