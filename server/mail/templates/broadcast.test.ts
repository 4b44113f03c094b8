import { expect, test } from "vitest";
import { renderMarkdown, type MarkdownBlock } from "#server/mail/markdown.ts";
import { renderBroadcast, type BroadcastMail } from "#server/mail/templates/broadcast.tsx";
import { addressLines, SITE } from "#src/content/site.ts";

function blocks(source: string): MarkdownBlock[] {
  const result = renderMarkdown(source);
  if (!result.ok) throw new Error(result.message);
  return result.blocks;
}

const mail: BroadcastMail = {
  subject: "The beta opens in Texas",
  blocks: blocks(
    "# Next week\n\nThe beta opens to firms in **Texas** on _Monday_.\n\n- Tie out `TB-2024`\n- Read [the guide](https://tieout.example/guide)\n\nQuestions? [hello@tieout.ai](mailto:hello@tieout.ai)",
  ),
  kind: "waitlist-news",
  name: "Ada",
  unsubscribeUrl: "https://tieout.example/unsubscribe?token=UNSUB",
  removeUrl: "https://tieout.example/waitlist/remove?token=REMOVE",
  siteUrl: "https://tieout.example",
};

/**
 * The words of the HTML body, after its title, with web addresses counted as words: the text part
 * writes them out, but shows a mailto: link as the address alone.
 */
function htmlWords(html: string): Set<string> {
  const body = html.slice(html.indexOf("</h1>"));
  const text = body
    .replace(/<a href="(https?:[^"]*)"/g, " $1 <a")
    .replace(/<[^>]*>/g, " ")
    .replace(/&(amp|lt|gt|quot|#x27);/g, " ");
  return words(text);
}

function words(text: string): Set<string> {
  return new Set(text.match(/[\p{L}\p{N}]+/gu));
}

test("the HTML and the text part carry the same words, both links and the postal address", () => {
  const { subject, html, text } = renderBroadcast(mail);
  expect(subject).toBe("The beta opens in Texas");
  expect(html).toContain("<title>The beta opens in Texas</title>");
  expect([...htmlWords(html)].sort()).toEqual([...words(text)].sort());
  for (const part of [html, text]) {
    expect(part).toContain("Hello Ada,");
    expect(part).toContain("Unsubscribe from waitlist news");
    expect(part).toContain("Remove me from the waitlist");
    expect(part).toContain(SITE.legalEntity);
    for (const line of addressLines()) expect(part).toContain(line);
  }
  expect(html).toContain('href="https://tieout.example/unsubscribe?token=UNSUB"');
  expect(html).toContain('href="https://tieout.example/waitlist/remove?token=REMOVE"');
  expect(html).toContain('href="https://tieout.example/guide"');
  expect(html).toMatch(/<h2[^>]*>Next week<\/h2>/);
  expect(html).not.toMatch(/<img|<script|<link|url\(/i);
  expect(text).toContain(
    "Unsubscribe from waitlist news: https://tieout.example/unsubscribe?token=UNSUB",
  );
  expect(text).toContain(
    "Remove me from the waitlist: https://tieout.example/waitlist/remove?token=REMOVE",
  );
  expect(text).toContain("the guide (https://tieout.example/guide)");
});

test("the text part reads as plain text: greeting, body, then the signature", () => {
  const { text } = renderBroadcast(mail);
  expect(text.startsWith("Hello Ada,\n\nNext week\n=========\n\nThe beta opens")).toBe(true);
  expect(text).toContain("\n- Tie out TB-2024\n- Read the guide (https://tieout.example/guide)\n");
  expect(text).toContain("Questions? hello@tieout.ai\n\n-- \n");
});

test("a hostile name is escaped in the HTML; no name, no greeting", () => {
  const hostile = renderBroadcast({ ...mail, name: 'Ada <script>alert("x")</script>' });
  expect(hostile.html).toContain("Hello Ada &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;,");
  expect(hostile.html).not.toContain("<script");
  for (const name of [undefined, "", "  "]) {
    const anonymous = renderBroadcast({ ...mail, name });
    expect(anonymous.html).not.toContain("Hello");
    expect(anonymous.text).not.toContain("Hello");
    expect(anonymous.text.startsWith("Next week\n")).toBe(true);
  }
});

test("the subject is escaped where it is the title", () => {
  const { subject, html } = renderBroadcast({ ...mail, subject: "Q&A <b>live</b>" });
  expect(subject).toBe("Q&A <b>live</b>");
  expect(html).toContain("<title>Q&amp;A &lt;b&gt;live&lt;/b&gt;</title>");
  expect(html).not.toContain("<b>live");
});

test("the footer says why by kind, and unsubscribes from that kind", () => {
  const waitlist = renderBroadcast(mail);
  const product = renderBroadcast({ ...mail, kind: "product-news" });
  for (const part of [waitlist.html, waitlist.text]) {
    expect(part).toContain(`news about the ${SITE.name} beta and your place in it`);
    expect(part).not.toContain("product news");
  }
  expect(waitlist.text).toContain(
    "because this address is on the waitlist at https://tieout.example/waitlist.",
  );
  for (const part of [product.html, product.text]) {
    expect(part).toContain(`${SITE.name} product news, because you asked for it`);
    expect(part).toContain("Unsubscribe from product news");
    expect(part).not.toContain("waitlist news");
    expect(part).toContain("Remove me from the waitlist");
    expect(part).toContain("Unsubscribing keeps your place on the waitlist.");
  }
  expect(product.html).toContain('href="https://tieout.example/unsubscribe?token=UNSUB"');
});
