import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { startMailCatcher, type MailCatcher } from "#server/mail/catcher.ts";
import { createEmailSender } from "#server/outbox/email.ts";

let catcher: MailCatcher;
beforeAll(async () => {
  catcher = await startMailCatcher({ smtpPort: 0, webPort: 0 });
});
afterAll(() => catcher.stop());

test("the local inbox catches what is sent to it and lists it, escaped, on a page of its own", async () => {
  const sender = createEmailSender(catcher.relay);
  try {
    await sender.send(
      {
        category: "notice",
        from: { name: "Tieout", address: "hello@tieout.ai" },
        to: [{ name: "Ada", address: "ada@example.com" }],
        subject: "<script>alert(1)</script> & welcome",
        text: "Confirm here: <b>not bold</b>",
        html: undefined,
        headers: {},
      },
      "<stable-1@tieout.ai>",
    );
  } finally {
    sender.close();
  }
  await vi.waitFor(() => expect(catcher.messages()).toHaveLength(1));
  expect(catcher.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

  const list = await fetch(catcher.url);
  expect(list.status).toBe(200);
  expect(list.headers.get("content-security-policy")).toContain("default-src 'none'");
  const html = await list.text();
  expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; &amp; welcome");
  expect(html).not.toContain("<script>");
  const link = /href="(\/messages\/[0-9a-f-]+)"/.exec(html)?.[1];
  expect(link).toBeDefined();

  const view = await (await fetch(`${catcher.url}${link}`)).text();
  expect(view).toContain("Confirm here: &lt;b&gt;not bold&lt;/b&gt;");
  expect(view).toContain("Message-ID: &lt;stable-1@tieout.ai&gt;");
  expect((await fetch(`${catcher.url}/messages/nope`)).status).toBe(404);
});

test("a port already taken does not stop start-up: the inbox moves to a free one", async () => {
  const second = await startMailCatcher({
    smtpPort: catcher.relay.port,
    webPort: Number(new URL(catcher.url).port),
  });
  try {
    expect(second.relay.port).not.toBe(catcher.relay.port);
    expect(second.url).not.toBe(catcher.url);
    expect((await fetch(second.url)).status).toBe(200);
  } finally {
    await second.stop();
  }
});
