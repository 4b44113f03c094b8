/**
 * A broadcast's mail from its stored subject and Markdown body (decision 041): the body is parsed
 * by server/mail/markdown.ts (a strict subset, no HTML) and laid out by the broadcast template,
 * HTML and plain text from the same blocks. The composer's preview is the same rendering.
 */
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

export function renderBroadcastMail(mail: {
  subject: string;
  body: string;
  kind: Kind;
  name: string | undefined;
  unsubscribeUrl: string;
  removeUrl: string;
  siteUrl: string;
}): { subject: string; html: string; text: string } {
  const parsed = renderMarkdown(mail.body);
  // A stored body was checked when it was saved; one that no longer parses is not sent.
  if (!parsed.ok) throw new Error(`broadcast body does not parse: ${parsed.message}`);
  return renderBroadcast({ ...mail, blocks: parsed.blocks });
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
      siteUrl: preview,
    }),
  };
}
