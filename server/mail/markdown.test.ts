import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, test } from "vitest";
import {
  MARKDOWN_MAX_LENGTH,
  MarkdownHtml,
  markdownText,
  renderMarkdown,
  type MarkdownBlock,
} from "#server/mail/markdown.ts";

function blocks(source: string): MarkdownBlock[] {
  const result = renderMarkdown(source);
  if (!result.ok) throw new Error(`refused: ${result.message}`);
  return result.blocks;
}

/** The HTML part's body, without the mail layout's inline styles, so assertions read as markup. */
function html(source: string): string {
  const markup = renderToStaticMarkup(createElement(MarkdownHtml, { blocks: blocks(source) }));
  return markup.replace(/ style="[^"]*"/g, "");
}

function text(source: string): string {
  return markdownText(blocks(source));
}

function refusal(source: string): string {
  const result = renderMarkdown(source);
  if (result.ok) throw new Error(`accepted: ${JSON.stringify(result.blocks)}`);
  return result.message;
}

describe("paragraphs", () => {
  test("a blank line separates them; a single line break inside one is a space", () => {
    const source = "The beta opens\nnext week.\n\n  \nBring your workpapers.";
    expect(html(source)).toBe("<p>The beta opens next week.</p><p>Bring your workpapers.</p>");
    expect(text(source)).toBe("The beta opens next week.\n\nBring your workpapers.");
  });

  test("a line ending with two spaces or a backslash breaks the line", () => {
    const source = "Tieout, Inc.  \n8 The Green\\\nDover";
    expect(html(source)).toBe("<p>Tieout, Inc.<br/>8 The Green<br/>Dover</p>");
    expect(text(source)).toBe("Tieout, Inc.\n8 The Green\nDover");
  });

  test("an escaped backslash at the end of a line is a backslash, not a break", () => {
    expect(html("C:\\\\\nnext")).toBe("<p>C:\\ next</p>");
  });

  test("CR LF and lone CR line endings read as LF", () => {
    const lf = "# Dates\n\nOne\ntwo  \nthree\n\n- a\n- b";
    expect(blocks(lf.replaceAll("\n", "\r\n"))).toEqual(blocks(lf));
    expect(blocks(lf.replaceAll("\n", "\r"))).toEqual(blocks(lf));
  });
});

describe("headings", () => {
  test("#, ## and ### are h2, h3 and h4: the mail's subject is its h1", () => {
    expect(html("# One\n## Two\n### Three")).toBe("<h2>One</h2><h3>Two</h3><h4>Three</h4>");
  });

  test("the plain text underlines the first two levels", () => {
    expect(text("# Texas\n\n## Dates\n\n### Fees")).toBe("Texas\n=====\n\nDates\n-----\n\nFees");
  });

  test("a closing run of # is dropped; a heading ends the paragraph before it", () => {
    expect(html("Intro\n## Dates ##\nAfter")).toBe("<p>Intro</p><h3>Dates</h3><p>After</p>");
    expect(html("# C\\#")).toBe("<h2>C#</h2>");
  });

  test("a # without a space after it is text", () => {
    expect(html("#hashtag and #1")).toBe("<p>#hashtag and #1</p>");
  });

  test("a fourth level and an empty heading are refused", () => {
    expect(refusal("#### Deep")).toBe(
      "Line 1: headings go three levels deep (#, ##, ###); `####` is not supported.",
    );
    expect(refusal("Text\n\n##")).toBe("Line 3: the heading has no text.");
  });
});

describe("lists", () => {
  test("- and * make a bullet list, one item a line", () => {
    expect(html("- Excel\n* Tax filings")).toBe("<ul><li>Excel</li><li>Tax filings</li></ul>");
    expect(text("- Excel\n* Tax filings")).toBe("- Excel\n- Tax filings");
  });

  test("a numbered list keeps its first number and counts on from it", () => {
    expect(html("3. Three\n7. Four")).toBe('<ol start="3"><li>Three</li><li>Four</li></ol>');
    expect(text("3. Three\n7. Four")).toBe("3. Three\n4. Four");
    expect(html("1. One")).toBe("<ol><li>One</li></ol>");
  });

  test("a line under an item continues it; a blank line then text ends the list", () => {
    const source = "- One\ncontinued\n\n- Two  \nbroken\n\nAfter";
    expect(html(source)).toBe("<ul><li>One continued</li><li>Two<br/>broken</li></ul><p>After</p>");
    expect(text(source)).toBe("- One continued\n- Two\n  broken\n\nAfter");
  });

  test("switching between bullets and numbers starts a new list", () => {
    expect(html("- a\n1. b")).toBe("<ul><li>a</li></ul><ol><li>b</li></ol>");
  });

  test("an indented item under another is a nested list, refused", () => {
    expect(refusal("- One\n  - Inner")).toBe(
      "Line 2: lists inside lists are not supported. Start every item at the beginning of its line.",
    );
  });

  test("markers without a space, and other markers, are text", () => {
    expect(html("-5 degrees\n+ plus\n1) one")).toBe("<p>-5 degrees + plus 1) one</p>");
  });
});

describe("inline", () => {
  test("bold, italic with * or _, and code", () => {
    expect(html("**Bold**, *italic*, _italic_ and `=SUM(A1:A9)`")).toBe(
      "<p><strong>Bold</strong>, <em>italic</em>, <em>italic</em> and <code>=SUM(A1:A9)</code></p>",
    );
    expect(text("**Bold**, *italic*, _italic_ and `=SUM(A1:A9)`")).toBe(
      "*Bold*, _italic_, _italic_ and =SUM(A1:A9)",
    );
  });

  test("emphasis nests, and *** is both", () => {
    expect(html("***both*** and **bold *and italic***")).toBe(
      "<p><em><strong>both</strong></em> and <strong>bold <em>and italic</em></strong></p>",
    );
  });

  test("emphasis nests at most three deep; deeper markers are text", () => {
    expect(html("*a **b _c *d* c_ b** a*")).toBe("<p><em>a **b _c *d</em> c_ b** a*</p>");
  });

  test("unbalanced markers are text", () => {
    expect(html("**never closed and *this")).toBe("<p>**never closed and *this</p>");
    expect(html("**bold*")).toBe("<p>**bold*</p>");
    expect(html("*a **b* c**")).toBe("<p><em>a **b</em> c**</p>");
    expect(html("a **** b")).toBe("<p>a **** b</p>");
  });

  test("underscores inside words and lone asterisks are text", () => {
    expect(html("snake_case_name and 2 * 3 * 4 and fill in ____")).toBe(
      "<p>snake_case_name and 2 * 3 * 4 and fill in ____</p>",
    );
  });

  test("a backslash escapes a markup character, and is kept before any other", () => {
    expect(html("\\*not italic\\* \\# \\[x\\](y) \\` \\_ \\\\ \\a")).toBe(
      "<p>*not italic* # [x](y) ` _ \\ \\a</p>",
    );
  });

  test("a code span keeps its content as text, escaped", () => {
    expect(html("Type `<b>**x**</b>` here")).toBe(
      "<p>Type <code>&lt;b&gt;**x**&lt;/b&gt;</code> here</p>",
    );
    expect(html("`` a ` b `` then ``` unclosed")).toBe(
      "<p><code>a ` b</code> then ``` unclosed</p>",
    );
  });
});

describe("links", () => {
  test("https, http and mailto links, any case of scheme", () => {
    expect(
      html("[Site](https://tieout.ai) [Old](HTTP://tieout.ai) [Mail](mailto:hello@tieout.ai)"),
    ).toBe(
      '<p><a href="https://tieout.ai">Site</a> <a href="HTTP://tieout.ai">Old</a> <a href="mailto:hello@tieout.ai">Mail</a></p>',
    );
  });

  test("the plain text shows text (address), or the address once when it is the text", () => {
    expect(text("[the pricing](https://tieout.ai/pricing)")).toBe(
      "the pricing (https://tieout.ai/pricing)",
    );
    expect(text("[https://tieout.ai](https://tieout.ai)")).toBe("https://tieout.ai");
    expect(text("[hello@tieout.ai](mailto:hello@tieout.ai)")).toBe("hello@tieout.ai");
  });

  test("the address is escaped as an attribute, and keeps its balanced parentheses", () => {
    expect(
      html("[q](https://a.example/?x=1&y='2') [w](https://en.wikipedia.org/wiki/Tie_(a))"),
    ).toBe(
      '<p><a href="https://a.example/?x=1&amp;y=&#x27;2&#x27;">q</a> <a href="https://en.wikipedia.org/wiki/Tie_(a)">w</a></p>',
    );
  });

  test("the link's text may carry emphasis and code", () => {
    expect(html("[**Join** `now`](https://tieout.ai)")).toBe(
      '<p><a href="https://tieout.ai"><strong>Join</strong> <code>now</code></a></p>',
    );
  });

  test("brackets not followed by an address are text", () => {
    expect(html("[draft] and [a][b] and [x] (y)")).toBe("<p>[draft] and [a][b] and [x] (y)</p>");
  });

  test.each([
    ["[x](javascript:alert(1))", "javascript"],
    ["[x](JaVaScRiPt:alert(1))", "javascript"],
    ["[x](data:text/html;base64,PHNjcmlwdD4=)", "data"],
    ["[x](vbscript:msgbox)", "vbscript"],
    ["[x](file:///etc/passwd)", "file"],
  ])("%s is refused, naming its scheme", (source, scheme) => {
    expect(refusal(source)).toBe(
      `Line 1: the link "x" goes to a ${scheme}: address. Only https:, http: and mailto: links can be sent.`,
    );
  });

  test.each(["/pricing", "//evil.example/x", "#top", "tieout.ai"])(
    "a relative address (%s) is refused",
    (href) => {
      expect(refusal(`[x](${href})`)).toBe(
        `Line 1: the link "x" goes to \`${href}\`, which is not a full address. Write the whole address, starting with https://.`,
      );
    },
  );

  test("an address with a character an attribute would need escaped for is refused", () => {
    expect(refusal('[x](https://a.example/"onmouseover=alert(1))')).toContain(
      'the address of the link "x" contains """',
    );
    expect(refusal("[x](https://a.example/<b>)")).toContain('contains "<"');
    expect(refusal("[x](https:\\\\evil.example)")).toContain('contains "\\"');
  });

  test("an unfinished link, one with a space or a title, and one without text are refused", () => {
    const unfinished =
      'Line 1: the link "x" is not finished. Write links as [text](https://example.com): no space in the address, and ")" right after it.';
    expect(refusal("[x](https://tieout.ai")).toBe(unfinished);
    expect(refusal("[x](https://tieout.ai/a b)")).toBe(unfinished);
    expect(refusal('[x](https://tieout.ai "Title")')).toBe(unfinished);
    expect(refusal("[ ](https://tieout.ai)")).toBe(
      "Line 1: a link has no text (`[ ](https://tieout.ai)`). Put the words to click between the brackets.",
    );
    expect(refusal("[x]()")).toBe(
      'Line 1: the link "x" has no address. Write links as [text](https://example.com).',
    );
  });

  test("addresses that are not valid are refused", () => {
    expect(refusal("[x](https://)")).toContain("has an address that is not valid (`https://`)");
    expect(refusal("[x](mailto:nobody)")).toContain("not valid (`mailto:nobody`)");
  });
});

describe("images", () => {
  test("are refused, because they would load another server's file when the mail is opened", () => {
    expect(refusal("Look:\n\n![Chart](https://cdn.example/chart.png)")).toBe(
      'Line 3: images are not supported (`![Chart](https://cdn.example/chart.png)`): they would load from another server when the mail is opened. Link to it instead, without the "!": [Chart](url).',
    );
    expect(refusal("[![a](https://x.example/a.png)](https://tieout.ai)")).toContain(
      "images are not supported",
    );
  });

  test("an escaped ! before a link, or a ! before text in brackets, is text", () => {
    expect(html("Wow\\![this](https://tieout.ai) and wow![this]")).toBe(
      '<p>Wow!<a href="https://tieout.ai">this</a> and wow![this]</p>',
    );
  });
});

describe("HTML", () => {
  test.each([
    ["<script>alert(1)</script>", "<script>"],
    ["Hello <b>there</b>", "<b>"],
    ["Before </div> after", "</div>"],
    ["<!-- hidden -->", "<!-- hidden -->"],
    ["<!doctype html>", "<!doctype html>"],
    ["<?xml version", "<?xml"],
    ['<img src="https://t.example/pixel.gif">', '<img src="https://t.example/pixel.gif">'],
    ["<SCRIPT>", "<SCRIPT>"],
  ])("%s is refused, and quoted in the message", (source, quoted) => {
    expect(refusal(source)).toBe(
      `Line 1: the body contains HTML (\`${quoted}\`). Write it in Markdown; HTML is not sent. To show a "<" sign, put a space after it or write \\<.`,
    );
  });

  test("is refused wherever it hides: a heading, an item, a link's text, between emphasis", () => {
    for (const source of [
      "# Title <b>",
      "- item <i>x</i>",
      "[<b>x</b>](https://tieout.ai)",
      "**bold <u>x</u>**",
      "text\nmore <span>",
    ]) {
      expect(refusal(source)).toMatch(/^Line \d: the body contains HTML/);
    }
  });

  test("the message gives the line the tag is on", () => {
    expect(refusal("One\n\nTwo\nthree <br>")).toMatch(/^Line 4: /);
  });

  test("a < that starts no tag is text, escaped", () => {
    expect(html("revenue < $1M, 3<4 and <= 5")).toBe("<p>revenue &lt; $1M, 3&lt;4 and &lt;= 5</p>");
    expect(text("revenue < $1M")).toBe("revenue < $1M");
  });

  test("an escaped < and a tag in a code span are text, escaped", () => {
    expect(html("\\<script> and `<script>`")).toBe(
      "<p>&lt;script&gt; and <code>&lt;script&gt;</code></p>",
    );
  });

  test("entities are not decoded: they come out as the characters typed", () => {
    const source = "&lt;script&gt;alert(1)&lt;/script&gt; &#60;b&#62; &amp;";
    expect(html(source)).toBe(
      "<p>&amp;lt;script&amp;gt;alert(1)&amp;lt;/script&amp;gt; &amp;#60;b&amp;#62; &amp;amp;</p>",
    );
    expect(text(source)).toBe(source);
  });

  test("an address in angle brackets is refused with the link to write instead", () => {
    expect(refusal("See <https://tieout.ai>")).toBe(
      "Line 1: the address `<https://tieout.ai>` is in angle brackets, which is not supported. Write it as a link, [text](https://tieout.ai), or without the brackets.",
    );
    expect(refusal("Write to <hello@tieout.ai>")).toContain("[text](mailto:hello@tieout.ai)");
  });
});

describe("other Markdown, refused so nothing surprises", () => {
  test.each([
    [
      "```\ncode\n```",
      "Line 1: code blocks (```) are not supported. Put code within a line, between backticks: `code`.",
    ],
    [
      "Text\n\n> quoted",
      'Line 3: quotes (a line starting with ">") are not supported. Write the quote as a paragraph; to start a line with the sign, write \\>.',
    ],
    [
      "Text\n\n---",
      "Line 3: dividing lines (`---`) are not supported. Use a heading, or leave a blank line.",
    ],
    [
      "* * *",
      "Line 1: dividing lines (`***`) are not supported. Use a heading, or leave a blank line.",
    ],
    [
      "Title\n=====",
      "Line 2: underlined headings (`===`) are not supported. Start the heading's line with # instead.",
    ],
  ])("%j", (source, message) => {
    expect(refusal(source)).toBe(message);
  });

  test("escaped, the same characters are text", () => {
    expect(html("\\> not a quote\n\n\\- not an item")).toBe(
      "<p>&gt; not a quote</p><p>- not an item</p>",
    );
  });
});

describe("the body as a whole", () => {
  test("an empty or blank body is refused", () => {
    for (const source of ["", "   ", "\n\n\t\r\n"]) {
      expect(refusal(source)).toBe("The body is empty. Write the message to send.");
    }
  });

  test("20,000 characters are accepted; one more is refused; a CR LF counts as one", () => {
    expect(renderMarkdown("a".repeat(MARKDOWN_MAX_LENGTH)).ok).toBe(true);
    expect(renderMarkdown(`${"a\r\n".repeat(MARKDOWN_MAX_LENGTH / 2 - 1)}ab`).ok).toBe(true);
    expect(refusal("a".repeat(MARKDOWN_MAX_LENGTH + 1))).toBe(
      "The body is 20,001 characters long; the limit is 20,000. Shorten it, or send it as two broadcasts.",
    );
  });

  test("invisible and direction-changing characters are refused, with their line", () => {
    expect(refusal("ok\n[pay](https://tieout.ai)\u202Egnp.exe")).toBe(
      "Line 2: the body contains an invisible character (U+202E), perhaps pasted with the text. Delete it.",
    );
    expect(refusal("a\u0000b")).toContain("(U+0000)");
    expect(refusal("a\u2028b")).toContain("(U+2028)");
  });

  test("tabs, emoji and other scripts pass through", () => {
    expect(html("Año\tfiscal 👩‍💼 会計")).toBe("<p>Año\tfiscal 👩‍💼 会計</p>");
  });

  test("a very long line is one paragraph, its long source quoted short in a message", () => {
    const word = "x".repeat(MARKDOWN_MAX_LENGTH - 10);
    expect(html(word)).toBe(`<p>${word}</p>`);
    const message = refusal(`[x](${"/".repeat(MARKDOWN_MAX_LENGTH - 10)})`);
    expect(message.length).toBeLessThan(200);
  });

  test("the HTML and the text part come from the same blocks", () => {
    const source =
      "# Texas\n\nThe beta opens to firms in **Texas** next week.\n\n1. Sign in\n2. Open [Excel](https://tieout.ai/excel)";
    expect(html(source)).toBe(
      '<h2>Texas</h2><p>The beta opens to firms in <strong>Texas</strong> next week.</p><ol><li>Sign in</li><li>Open <a href="https://tieout.ai/excel">Excel</a></li></ol>',
    );
    expect(text(source)).toBe(
      "Texas\n=====\n\nThe beta opens to firms in *Texas* next week.\n\n1. Sign in\n2. Open Excel (https://tieout.ai/excel)",
    );
  });
});

describe("hostile bodies", () => {
  // Each body is at the limit and built to make a naive parser backtrack or rescan: markers that
  // never close, brackets that never finish, backtick runs of every length. Each gets a verdict,
  // never an exception (a stack overflow, say). How long they take is a figure of `npm run bench`,
  // not of a test: tests here never time anything.
  const fill = (unit: string) => unit.repeat(Math.floor(MARKDOWN_MAX_LENGTH / unit.length));
  const backtickLadder = () => {
    let body = "";
    for (let n = 1; body.length + n + 1 <= MARKDOWN_MAX_LENGTH; n++) body += `${"`".repeat(n)}x`;
    return body;
  };
  test.each([
    ["unclosed emphasis", fill("*a ")],
    ["alternating markers", fill("*a _b **c ")],
    ["closers only", fill("a* ")],
    ["open brackets", fill("[")],
    ["brackets with text", fill("[a] ")],
    ["backslashes", fill("\\")],
    ["backtick ladder", backtickLadder()],
    ["lone backticks", fill("` ")],
    ["signs", fill("< ")],
    ["spaces then a word", `${" ".repeat(MARKDOWN_MAX_LENGTH - 2)}ab`],
    ["a heading of spaces", `#${" ".repeat(MARKDOWN_MAX_LENGTH - 3)}a#`],
    ["many short lines", fill("- a  \n")],
    ["many paragraphs", fill("a\n\n")],
  ])("%s: 20,000 characters get a verdict", (_name, source) => {
    expect(source.length).toBeLessThanOrEqual(MARKDOWN_MAX_LENGTH);
    const result = renderMarkdown(source);
    expect(typeof result.ok).toBe("boolean");
    if (result.ok) expect(markdownText(result.blocks).length).toBeGreaterThan(0);
    else expect(result.message).toMatch(/^Line \d+: /);
  });

  test("a link opened on every line is refused at the first", () => {
    expect(refusal(fill("[a](b "))).toMatch(/^Line 1: the link "a" is not finished/);
  });
});
