/**
 * The body of a broadcast (decision 041): Markdown the operator writes, parsed once into blocks,
 * then rendered from those blocks twice, as the mail's HTML (`MarkdownHtml`, in the mail layout's
 * inline styles) and as its plain text (`markdownText`), so both parts always say the same.
 *
 * A small, strict subset, parsed by our own code, because mail clients render little and what
 * every recipient gets must be what the operator previewed:
 * - paragraphs, separated by a blank line; a line break inside one is a space, or a hard break
 *   when the line ends with two spaces or a backslash;
 * - headings `#`, `##`, `###`, rendered as h2, h3, h4: the mail's subject is its h1 (layout.tsx);
 * - one level of bullet (`-`, `*`) or numbered (`1.`) lists, each item a line of inline text;
 * - inline `**bold**`, `*italic*`, `_italic_`, `` `code` `` and `[text](url)` links to https:,
 *   http: and mailto: addresses only; a backslash escapes a markup character.
 *
 * What looks like markup we do not send (HTML, images, other schemes, quotes, code blocks,
 * dividers, nested lists) is refused with a sentence for the operator, never rendered or passed
 * through as text. Entities are not decoded: `&lt;` stays the four characters "&lt;". A `<` not
 * followed by a letter, `/`, `!` or `?` ("revenue < $1M") is a sign, not a tag. All text reaches
 * the HTML through React, which escapes it and the links' attributes.
 *
 * Parsing is linear in the length of the body: nothing is tried twice. That is why a link opened
 * with `[text](` must be finished (or the body is refused) rather than read again as text, and
 * why emphasis nests at most three deep.
 */
import { createElement, Fragment, type CSSProperties, type ReactNode } from "react";
import { MAIL_COLORS, MailText } from "#server/mail/templates/layout.tsx";

/** The longest body accepted, counting a line ending as one character. */
export const MARKDOWN_MAX_LENGTH = 20_000;

/** Text inside a block. */
type Inline =
  | { type: "text"; text: string }
  | { type: "strong"; children: Inline[] }
  | { type: "em"; children: Inline[] }
  | { type: "code"; text: string }
  | { type: "link"; href: string; children: Inline[] }
  | { type: "break" };

export type MarkdownBlock =
  | { type: "paragraph"; content: Inline[] }
  /** `#` is level 2: the mail's title, its subject, is its only level 1. */
  | { type: "heading"; level: 2 | 3 | 4; content: Inline[] }
  | { type: "list"; ordered: boolean; start: number; items: Inline[][] };

export type MarkdownResult = { ok: true; blocks: MarkdownBlock[] } | { ok: false; message: string };

/** Parses a body, or says in a sentence for the operator why it cannot be sent. */
export function renderMarkdown(source: string): MarkdownResult {
  // A browser posts a textarea with CRLF line endings, so counting before this would count each
  // line ending twice against the limit the form showed.
  const body = source.replace(/\r\n?/g, "\n");
  if (body.trim() === "")
    return { ok: false, message: "The body is empty. Write the message to send." };
  if (body.length > MARKDOWN_MAX_LENGTH) {
    const count = body.length.toLocaleString("en-US");
    const limit = MARKDOWN_MAX_LENGTH.toLocaleString("en-US");
    return {
      ok: false,
      message: `The body is ${count} characters long; the limit is ${limit}. Shorten it, or send it as two broadcasts.`,
    };
  }
  try {
    refuseInvisible(body);
    return { ok: true, blocks: parseBlocks(body) };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, message: error.message };
    throw error;
  }
}

/** Why a body cannot be sent. Thrown deep in the parser, caught only in `renderMarkdown`. */
class Refusal extends Error {}

/** Characters that show as nothing, or reorder what is shown (a link's text could lie). */
function isInvisible(code: number): boolean {
  return (
    (code < 0x20 && code !== 0x09 && code !== 0x0a) ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x2028 ||
    code === 0x2029 ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

function refuseInvisible(body: string): void {
  let line = 1;
  for (let i = 0; i < body.length; i++) {
    const code = body.charCodeAt(i);
    if (code === 0x0a) line++;
    else if (isInvisible(code)) {
      const hex = code.toString(16).toUpperCase().padStart(4, "0");
      throw new Refusal(
        `Line ${line}: the body contains an invisible character (U+${hex}), perhaps pasted with the text. Delete it.`,
      );
    }
  }
}

/** A line of the body, without its indentation, and its number for messages. */
type SourceLine = { text: string; line: number };

type OpenBlock =
  | { type: "paragraph"; lines: SourceLine[] }
  /** `gap`: a blank line came after the last item, so only another item continues the list. */
  | { type: "list"; ordered: boolean; start: number; items: SourceLine[][]; gap: boolean };

const BULLET = /^[-*][ \t]+(\S.*)$/;
const NUMBERED = /^(\d{1,9})\.[ \t]+(\S.*)$/;
const HEADING = /^(#+)(?:[ \t]+(.*))?$/;

function parseBlocks(body: string): MarkdownBlock[] {
  const blocks: MarkdownBlock[] = [];
  let open: OpenBlock | null = null;
  const finish = () => {
    if (open?.type === "paragraph") {
      blocks.push({ type: "paragraph", content: parseInline(joinLines(open.lines)) });
    } else if (open?.type === "list") {
      const { ordered, start } = open;
      const items = open.items.map((item) => parseInline(joinLines(item)));
      blocks.push({ type: "list", ordered, start, items });
    }
    open = null;
  };

  const lines = body.split("\n");
  for (const [index, raw] of lines.entries()) {
    const line = index + 1;
    const text = raw.replace(/^[ \t]+/, "");
    const indented = text.length < raw.length;
    if (text.trim() === "") {
      if (open?.type === "list") open.gap = true;
      else finish();
      continue;
    }
    refuseUnsupportedBlock(text, line, open?.type === "paragraph");

    const heading = HEADING.exec(text);
    if (heading) {
      finish();
      blocks.push(headingBlock(heading[1]?.length ?? 0, heading[2] ?? "", line));
      continue;
    }

    const bullet = BULLET.exec(text);
    const numbered = bullet ? null : NUMBERED.exec(text);
    const item = bullet?.[1] ?? numbered?.[2];
    if (item !== undefined) {
      // Indentation under an item is how Markdown nests a list: say so rather than flatten it.
      if (indented && open?.type === "list") {
        throw new Refusal(
          `Line ${line}: lists inside lists are not supported. Start every item at the beginning of its line.`,
        );
      }
      const ordered = numbered !== null;
      if (open?.type === "list" && open.ordered === ordered) {
        open.items.push([{ text: item, line }]);
        open.gap = false;
      } else {
        finish();
        const start = numbered ? Number(numbered[1]) : 1;
        open = { type: "list", ordered, start, items: [[{ text: item, line }]], gap: false };
      }
      continue;
    }

    if (open?.type === "paragraph") open.lines.push({ text, line });
    else if (open?.type === "list" && !open.gap) open.items.at(-1)?.push({ text, line });
    else {
      finish();
      open = { type: "paragraph", lines: [{ text, line }] };
    }
  }
  finish();
  return blocks;
}

/** Block syntax of full Markdown that this subset does not send: refused, so nothing surprises. */
function refuseUnsupportedBlock(text: string, line: number, inParagraph: boolean): void {
  if (text.startsWith("```") || text.startsWith("~~~")) {
    throw new Refusal(
      `Line ${line}: code blocks (\`\`\`) are not supported. Put code within a line, between backticks: \`code\`.`,
    );
  }
  if (text.startsWith(">")) {
    throw new Refusal(
      `Line ${line}: quotes (a line starting with ">") are not supported. Write the quote as a paragraph; to start a line with the sign, write \\>.`,
    );
  }
  const compact = text.replace(/[ \t]/g, "");
  if (compact.length >= 3 && /^(?:-+|\*+|_+)$/.test(compact)) {
    throw new Refusal(
      `Line ${line}: dividing lines (\`${compact.slice(0, 3)}\`) are not supported. Use a heading, or leave a blank line.`,
    );
  }
  if (inParagraph && /^=+$/.test(compact)) {
    throw new Refusal(
      `Line ${line}: underlined headings (\`===\`) are not supported. Start the heading's line with # instead.`,
    );
  }
}

function headingBlock(hashes: number, rest: string, line: number): MarkdownBlock {
  if (hashes > 3) {
    throw new Refusal(
      `Line ${line}: headings go three levels deep (#, ##, ###); \`${"#".repeat(hashes)}\` is not supported.`,
    );
  }
  // An optional closing run of #, as in `## Dates ##`, when a space comes before it. Done by hand:
  // a regular expression for it backtracks over a long run of spaces.
  let text = rest.trimEnd();
  let end = text.length;
  while (end > 0 && text[end - 1] === "#") end--;
  if (end === 0) text = "";
  else if (end < text.length && /[ \t]/.test(text.charAt(end - 1)))
    text = text.slice(0, end).trimEnd();
  if (text === "") throw new Refusal(`Line ${line}: the heading has no text.`);
  const level = hashes === 1 ? 2 : hashes === 2 ? 3 : 4;
  return { type: "heading", level, content: parseInline(joinLines([{ text, line }])) };
}

/** A block's text as one string, "\n" standing for each hard break, and where each line begins. */
type Joined = { text: string; starts: { at: number; line: number }[] };

function joinLines(lines: readonly SourceLine[]): Joined {
  let text = "";
  const starts: Joined["starts"] = [];
  lines.forEach((source, i) => {
    starts.push({ at: text.length, line: source.line });
    const stripped = source.text.trimEnd();
    if (i === lines.length - 1) {
      text += stripped;
    } else if (source.text.length - stripped.length >= 2) {
      text += `${stripped}\n`;
    } else if (endsWithOddBackslashes(stripped)) {
      text += `${stripped.slice(0, -1)}\n`;
    } else {
      text += `${stripped} `;
    }
  });
  return { text, starts };
}

/** An odd run means the last backslash is not itself escaped (`\\` is a backslash as text). */
function endsWithOddBackslashes(text: string): boolean {
  let count = 0;
  for (let i = text.length - 1; i >= 0 && text[i] === "\\"; i--) count++;
  return count % 2 === 1;
}

type Marker = "*" | "**" | "_";
type Frame = { marker: Marker | null; children: Inline[]; parent: Frame | null };

/** Deeper emphasis is text: nothing reads it, and a cap keeps unwinding unclosed markers linear. */
const MAX_EMPHASIS_DEPTH = 3;
const SPECIAL = new Set(["\\", "`", "*", "_", "[", "!", "<", "\n"]);
const ESCAPABLE = /^[!-/:-@[-`{-~]$/;
const ALLOWED_SCHEMES = ["https", "http", "mailto"];
/** An address in angle brackets, CommonMark's autolink: refused with a hint, not as HTML. */
const ANGLE_ADDRESS = /<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*|[^\s<>@:]+@[^\s<>@]+)>/y;

const isSpace = (c: string) => c === "" || /\s/.test(c);
const isPunctuation = (c: string) => /[\p{P}\p{S}]/u.test(c);

function parseInline(joined: Joined): Inline[] {
  return new InlineParser(joined).parse(0, joined.text.length);
}

/**
 * The emphasis of one run of inline text: a stack of markers opened and not yet closed, each
 * holding what came after it. A class rather than closures, so a body of thousands of short
 * blocks allocates no functions per block.
 */
class Emphasis {
  private readonly root: Frame = { marker: null, children: [], parent: null };
  private current = this.root;
  private depth = 0;
  private readonly open: Record<Marker, number> = { "*": 0, "**": 0, _: 0 };

  text(text: string): void {
    appendText(this.current, text);
  }

  add(node: Inline): void {
    this.current.children.push(node);
  }

  /**
   * A run of `*` or `_`, with the characters either side of it ("" at an end). CommonMark's
   * flanking rules decide whether it may open or close, so `snake_case` and `2 * 3` stay text.
   */
  run(marker: "*" | "_", length: number, before: string, after: string): void {
    const left =
      !isSpace(after) && (!isPunctuation(after) || isSpace(before) || isPunctuation(before));
    const right =
      !isSpace(before) && (!isPunctuation(before) || isSpace(after) || isPunctuation(after));
    const canOpen = marker === "*" ? left : left && (!right || isPunctuation(before));
    const canClose = marker === "*" ? right : right && (!left || isPunctuation(after));

    if (length > (marker === "_" ? 1 : 3)) {
      this.text(marker.repeat(length));
    } else if (length === 3) {
      const emOpen = this.open["*"] > 0;
      const strongOpen = this.open["**"] > 0;
      if (canClose && (emOpen || strongOpen)) {
        const first = emOpen && strongOpen ? this.innermost() : emOpen ? "*" : "**";
        const second = first === "*" ? "**" : "*";
        this.close(first);
        if (this.open[second] > 0) this.close(second);
        else this.openOrText(second, canOpen);
      } else if (canOpen && this.depth + 2 <= MAX_EMPHASIS_DEPTH) {
        this.push("*");
        this.push("**");
      } else {
        this.text("***");
      }
    } else {
      const kind: Marker = marker === "_" ? "_" : length === 2 ? "**" : "*";
      if (canClose && this.open[kind] > 0) this.close(kind);
      else this.openOrText(kind, canOpen);
    }
  }

  /** What was read; markers never closed are text. */
  finish(): Inline[] {
    while (this.current !== this.root) this.unwind();
    return this.root.children;
  }

  private openOrText(marker: Marker, canOpen: boolean): void {
    if (canOpen && this.depth < MAX_EMPHASIS_DEPTH) this.push(marker);
    else this.text(marker);
  }

  private push(marker: Marker): void {
    this.current = { marker, children: [], parent: this.current };
    this.open[marker]++;
    this.depth++;
  }

  private pop(): Frame {
    const frame = this.current;
    this.current = frame.parent ?? this.root;
    if (frame.marker) this.open[frame.marker]--;
    this.depth--;
    return frame;
  }

  /** An opener that never closed becomes its marker as text, followed by what came after it. */
  private unwind(): void {
    const frame = this.pop();
    this.text(frame.marker ?? "");
    for (const child of frame.children) {
      if (child.type === "text") this.text(child.text);
      else this.add(child);
    }
  }

  private close(marker: Marker): void {
    while (this.current.marker !== marker) this.unwind();
    const frame = this.pop();
    this.add({ type: marker === "**" ? "strong" : "em", children: frame.children });
  }

  /** Which of `*` and `**` opened last, when both are open. */
  private innermost(): Marker {
    for (let frame: Frame | null = this.current; frame; frame = frame.parent) {
      if (frame.marker === "*" || frame.marker === "**") return frame.marker;
    }
    return "*";
  }
}

/** Reads the inline text of one block, refusing what may not be sent. */
class InlineParser {
  private readonly text: string;
  /** Where each run of backticks starts, by its length; and how far each length was searched. */
  private readonly backticks = new Map<number, number[]>();
  private readonly searched = new Map<number, number>();

  constructor(private readonly joined: Joined) {
    this.text = joined.text;
    const { text } = this;
    for (let i = 0; i < text.length;) {
      if (text[i] !== "`") {
        i++;
        continue;
      }
      let end = i;
      while (text[end] === "`") end++;
      const runs = this.backticks.get(end - i);
      if (runs) runs.push(i);
      else this.backticks.set(end - i, [i]);
      i = end;
    }
  }

  /** The inline content of text[from, to): a link's text is read apart, with its own emphasis. */
  parse(from: number, to: number): Inline[] {
    const { text } = this;
    const out = new Emphasis();
    let bangAt = -1;
    let i = from;
    while (i < to) {
      const ch = text.charAt(i);
      if (ch === "\\") {
        const next = text.charAt(i + 1);
        const escapes = i + 1 < to && ESCAPABLE.test(next);
        out.text(escapes ? next : "\\");
        i += escapes ? 2 : 1;
      } else if (ch === "\n") {
        out.add({ type: "break" });
        i++;
      } else if (ch === "`") {
        let end = i;
        while (end < to && text[end] === "`") end++;
        const closer = this.closingBackticks(end - i, end, to);
        if (closer < 0) {
          out.text(text.slice(i, end));
          i = end;
        } else {
          out.add({ type: "code", text: codeText(text.slice(end, closer)) });
          i = closer + (end - i);
        }
      } else if (ch === "<") {
        this.refuseMarkup(i, to);
        out.text("<");
        i++;
      } else if (ch === "!") {
        bangAt = i;
        out.text("!");
        i++;
      } else if (ch === "[") {
        const link = this.readLink(i, to, i > from && bangAt === i - 1);
        if (link) out.add(link.node);
        else out.text("[");
        i = link ? link.end : i + 1;
      } else if (ch === "*" || ch === "_") {
        let end = i;
        while (end < to && text[end] === ch) end++;
        out.run(ch, end - i, i > from ? text.charAt(i - 1) : "", end < to ? text.charAt(end) : "");
        i = end;
      } else {
        let end = i + 1;
        while (end < to && !SPECIAL.has(text.charAt(end))) end++;
        out.text(text.slice(i, end));
        i = end;
      }
    }
    return out.finish();
  }

  private refuse(at: number, message: string): never {
    let line = this.joined.starts[0]?.line ?? 1;
    for (const start of this.joined.starts) if (start.at <= at) line = start.line;
    throw new Refusal(`Line ${line}: ${message}`);
  }

  /**
   * The run of exactly `length` backticks that closes a code span, or -1. Linear overall: spans
   * are asked for in the order they open, so each length's search only moves forward.
   */
  private closingBackticks(length: number, after: number, before: number): number {
    const runs = this.backticks.get(length) ?? [];
    let cursor = this.searched.get(length) ?? 0;
    while (cursor < runs.length && (runs[cursor] ?? Infinity) < after) cursor++;
    this.searched.set(length, cursor);
    const at = runs[cursor];
    return at !== undefined && at + length <= before ? at : -1;
  }

  /** `<` before a letter, `/`, `!` or `?` opens a tag, a comment or a declaration: refused. */
  private refuseMarkup(at: number, to: number): void {
    const { text } = this;
    if (at + 1 >= to || !/[A-Za-z/!?]/.test(text.charAt(at + 1))) return;
    ANGLE_ADDRESS.lastIndex = at;
    const address = ANGLE_ADDRESS.exec(text);
    if (address) {
      const inside = address[1] ?? "";
      const href = /^[A-Za-z][A-Za-z0-9+.-]*:/.test(inside) ? inside : `mailto:${inside}`;
      this.refuse(
        at,
        `the address \`${short(address[0])}\` is in angle brackets, which is not supported. Write it as a link, [text](${short(href)}), or without the brackets.`,
      );
    }
    this.refuse(
      at,
      `the body contains HTML (\`${tagSnippet(text, at)}\`). Write it in Markdown; HTML is not sent. To show a "<" sign, put a space after it or write \\<.`,
    );
  }

  /**
   * `[text](address)` starting at `at`, or null when the brackets are text. Once `](` is seen the
   * operator meant a link, so an unfinished one is refused rather than read again as text: that
   * second reading is what would make parsing quadratic. `image`: a `!` came right before.
   */
  private readLink(at: number, to: number, image: boolean): { node: Inline; end: number } | null {
    const { text } = this;
    let close = at + 1;
    while (close < to) {
      const c = text[close];
      if (c === "\\") close += 2;
      else if (c === "[") return null;
      else if (c === "]") break;
      else close++;
    }
    if (close + 1 >= to || text[close] !== "]" || text[close + 1] !== "(") return null;

    const label = short(text.slice(at + 1, close));
    let k = close + 2;
    while (k < to && (text[k] === " " || text[k] === "\t")) k++;
    const hrefStart = k;
    // Balanced parentheses belong to the address: https://en.wikipedia.org/wiki/Tie_(accounting)
    let nesting = 0;
    for (; k < to; k++) {
      const c = text.charAt(k);
      if (isSpace(c) || (c === ")" && nesting === 0)) break;
      if (c === "(") nesting++;
      else if (c === ")") nesting--;
    }
    const href = text.slice(hrefStart, k);
    while (k < to && (text[k] === " " || text[k] === "\t")) k++;
    if (k >= to || text[k] !== ")") {
      this.refuse(
        at,
        `the link "${label}" is not finished. Write links as [text](https://example.com): no space in the address, and ")" right after it.`,
      );
    }
    const end = k + 1;
    if (image) {
      this.refuse(
        at - 1,
        `images are not supported (\`${short(text.slice(at - 1, end))}\`): they would load from another server when the mail is opened. Link to it instead, without the "!": [${label}](url).`,
      );
    }
    const children = this.parse(at + 1, close);
    if (plainText(children).trim() === "") {
      this.refuse(
        at,
        `a link has no text (\`${short(text.slice(at, end))}\`). Put the words to click between the brackets.`,
      );
    }
    const problem = hrefProblem(href, label);
    if (problem) this.refuse(at, problem);
    return { node: { type: "link", href, children }, end };
  }
}

/** A code span's text: line breaks become spaces; one space padding each side is dropped. */
function codeText(raw: string): string {
  const text = raw.replaceAll("\n", " ");
  return text.length > 2 && text.startsWith(" ") && text.endsWith(" ") && text.trim() !== ""
    ? text.slice(1, -1)
    : text;
}

/** Why a link's address cannot be sent, or null when it can. */
function hrefProblem(href: string, label: string): string | null {
  if (href === "") {
    return `the link "${label}" has no address. Write links as [text](https://example.com).`;
  }
  const bad = /[<>"`\\]/.exec(href);
  if (bad) {
    return `the address of the link "${label}" contains "${bad[0]}", which an address cannot have. Leave it out, or write it as ${encodeURIComponent(bad[0])}.`;
  }
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(href)?.[1]?.toLowerCase();
  if (scheme === undefined) {
    return `the link "${label}" goes to \`${short(href)}\`, which is not a full address. Write the whole address, starting with https://.`;
  }
  if (!ALLOWED_SCHEMES.includes(scheme)) {
    return `the link "${label}" goes to a ${scheme}: address. Only https:, http: and mailto: links can be sent.`;
  }
  const wellFormed =
    scheme === "mailto" ? /^mailto:[^@]+@[^@]+$/i.test(href) : /^https?:\/\/[^/?#]/i.test(href);
  if (!wellFormed || !URL.canParse(href)) {
    return `the link "${label}" has an address that is not valid (\`${short(href)}\`).`;
  }
  return null;
}

function appendText(frame: Frame, text: string): void {
  if (text === "") return;
  const last = frame.children.at(-1);
  if (last?.type === "text") last.text += text;
  else frame.children.push({ type: "text", text });
}

/** Source quoted in a message, cut so a long line does not swamp it. */
function short(text: string, max = 40): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** The tag as written, up to its ">" when near, else up to the first space. */
function tagSnippet(text: string, at: number): string {
  const window = text.slice(at, at + 40);
  const close = window.indexOf(">");
  if (close >= 0 && !window.slice(0, close).includes("\n")) return window.slice(0, close + 1);
  return short(/^\S+/.exec(window)?.[0] ?? "<", 39);
}

/** The words alone, without emphasis marks: how a link's text is compared with its address. */
function plainText(nodes: readonly Inline[]): string {
  return nodes
    .map((node) => {
      switch (node.type) {
        case "text":
        case "code":
          return node.text;
        case "break":
          return "\n";
        default:
          return plainText(node.children);
      }
    })
    .join("");
}

/**
 * The plain-text part: blocks a blank line apart, `#` headings underlined with `=` and `##` with
 * `-`, list items marked as written, `*bold*` and `_italic_` as plain-text mail writes them, and a
 * link as `text (address)`, or the address alone when that is its text.
 */
export function markdownText(blocks: readonly MarkdownBlock[]): string {
  return blocks.map(blockText).join("\n\n");
}

function blockText(block: MarkdownBlock): string {
  switch (block.type) {
    case "paragraph":
      return inlineText(block.content);
    case "heading": {
      const line = inlineText(block.content);
      if (block.level === 4) return line;
      return `${line}\n${(block.level === 2 ? "=" : "-").repeat([...line].length)}`;
    }
    case "list":
      return block.items
        .map((item, i) => {
          const marker = block.ordered ? `${block.start + i}.` : "-";
          const indent = " ".repeat(marker.length + 1);
          return `${marker} ${inlineText(item).replaceAll("\n", `\n${indent}`)}`;
        })
        .join("\n");
  }
}

function inlineText(nodes: readonly Inline[]): string {
  return nodes
    .map((node) => {
      switch (node.type) {
        case "text":
        case "code":
          return node.text;
        case "break":
          return "\n";
        case "strong":
          return `*${inlineText(node.children)}*`;
        case "em":
          return `_${inlineText(node.children)}_`;
        case "link": {
          const label = plainText(node.children);
          const same = label === node.href || `mailto:${label}` === node.href;
          return same ? label : `${inlineText(node.children)} (${node.href})`;
        }
      }
    })
    .join("");
}

const HEADING_STYLES: Record<2 | 3 | 4, CSSProperties> = {
  2: { margin: "24px 0 12px", fontSize: "19px", lineHeight: "26px" },
  3: { margin: "20px 0 8px", fontSize: "17px", lineHeight: "24px" },
  4: { margin: "16px 0 8px", fontSize: "16px", lineHeight: "24px" },
};
const LIST_STYLE: CSSProperties = { margin: "0 0 16px", padding: "0 0 0 24px" };
const ITEM_STYLE: CSSProperties = { margin: "0 0 6px" };
const LINK_STYLE: CSSProperties = { color: MAIL_COLORS.ledger };
const CODE_STYLE: CSSProperties = {
  fontFamily: "Menlo, Consolas, monospace",
  fontSize: "14px",
  backgroundColor: "#f6f4ef",
  padding: "1px 4px",
  borderRadius: "4px",
};

/**
 * The HTML part's body, in the mail layout's styles. Children are passed to `createElement` as
 * arguments, not arrays, so React asks for no keys; React escapes every text and attribute.
 */
export function MarkdownHtml({ blocks }: { blocks: readonly MarkdownBlock[] }): ReactNode {
  return createElement(Fragment, null, ...blocks.map(blockHtml));
}

function blockHtml(block: MarkdownBlock): ReactNode {
  switch (block.type) {
    case "paragraph":
      return createElement(MailText, null, ...inlineHtml(block.content));
    case "heading":
      return createElement(
        `h${block.level}`,
        { style: HEADING_STYLES[block.level] },
        ...inlineHtml(block.content),
      );
    case "list":
      return createElement(
        block.ordered ? "ol" : "ul",
        { style: LIST_STYLE, start: block.ordered && block.start !== 1 ? block.start : undefined },
        ...block.items.map((item) =>
          createElement("li", { style: ITEM_STYLE }, ...inlineHtml(item)),
        ),
      );
  }
}

function inlineHtml(nodes: readonly Inline[]): ReactNode[] {
  return nodes.map((node) => {
    switch (node.type) {
      case "text":
        return node.text;
      case "break":
        return createElement("br");
      case "code":
        return createElement("code", { style: CODE_STYLE }, node.text);
      case "strong":
        return createElement("strong", null, ...inlineHtml(node.children));
      case "em":
        return createElement("em", null, ...inlineHtml(node.children));
      case "link":
        return createElement(
          "a",
          { href: node.href, style: LINK_STYLE },
          ...inlineHtml(node.children),
        );
    }
  });
}
