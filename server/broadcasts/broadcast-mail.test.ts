/**
 * A broadcast's mail, laid out once and filled in per recipient (decision 042), is exactly the mail
 * the template writes for that person, whatever the name holds.
 */
import { describe, expect, test } from "vitest";
import { broadcastMailMaker } from "#server/broadcasts/broadcast-mail.ts";
import { renderMarkdown } from "#server/mail/markdown.ts";
import { renderBroadcast } from "#server/mail/templates/broadcast.tsx";

const BODY = `## What is new

The beta opens to firms in **Texas** next week: [read more](https://example.com/a?b=1&c=2).

- Bring a trial balance
- Bring "questions" & coffee`;

const MAIL = {
  subject: "News & more <for you>",
  body: BODY,
  kind: "waitlist-news" as const,
  siteUrl: "https://tieout.example",
};

const NAMES = [
  "Ada",
  "  Grace Hopper  ",
  "",
  "   ",
  undefined,
  `<script>alert("x")</script>`,
  "O'Brien & Sons",
  "Zoë 🧾 Müller",
  "$& $1 $$", // what String.replace would read as patterns
];

describe("broadcast mail made once for many", () => {
  test.each(NAMES.map((name) => [JSON.stringify(name), name]))(
    "a recipient named %s gets what the template writes for them",
    (_, name) => {
      const make = broadcastMailMaker(MAIL);
      const links = {
        unsubscribeUrl: "https://tieout.example/unsubscribe?token=1a.w.2b.0123456789abcdef01234567",
        removeUrl: "https://tieout.example/waitlist/remove?token=abc&x=<y>",
      };
      const parsed = renderMarkdown(BODY);
      if (!parsed.ok) throw new Error(parsed.message);
      const expected = renderBroadcast({ ...MAIL, ...links, name, blocks: parsed.blocks });
      expect(make({ name, ...links })).toEqual(expected);
    },
  );

  test("each recipient's links are their own, from one maker", () => {
    const make = broadcastMailMaker(MAIL);
    const a = make({
      name: "Ada",
      unsubscribeUrl: "https://x/u?token=A",
      removeUrl: "https://x/r?token=A",
    });
    const b = make({
      name: "Bo",
      unsubscribeUrl: "https://x/u?token=B",
      removeUrl: "https://x/r?token=B",
    });
    expect(a.text).toContain("https://x/u?token=A");
    expect(a.text).not.toContain("token=B");
    expect(b.html).toContain('href="https://x/r?token=B"');
    expect(b.html).not.toContain("token=A");
    expect(a.html).not.toMatch(/tieoutslot/);
  });

  test("the questions' link goes to those who may answer, as the template writes it, and to no one else", () => {
    const make = broadcastMailMaker(MAIL);
    const parsed = renderMarkdown(BODY);
    if (!parsed.ok) throw new Error(parsed.message);
    const links = { unsubscribeUrl: "https://x/u?token=C", removeUrl: "https://x/r?token=C" };
    const answersUrl = "https://x/waitlist/answers?token=7.k3.ab&x=<y>";
    const asked = make({ name: "Cy", ...links, answersUrl });
    expect(asked).toEqual(
      renderBroadcast({ ...MAIL, ...links, answersUrl, name: "Cy", blocks: parsed.blocks }),
    );
    expect(asked.text).toContain(`Tell us about your firm, or change your answers: ${answersUrl}`);
    expect(asked.html).toContain('href="https://x/waitlist/answers?token=7.k3.ab&amp;x=&lt;y&gt;"');
    // The next recipient of the same maker, who may not answer, gets no such link.
    const plain = make({ name: "Di", ...links });
    expect(plain.text).not.toContain("Tell us about your firm");
    expect(plain.html).not.toContain("/waitlist/answers");
  });

  test("a body that no longer parses is not made into mail", () => {
    expect(() => broadcastMailMaker({ ...MAIL, body: "<b>raw</b>" })).toThrow(/does not parse/);
  });
});
