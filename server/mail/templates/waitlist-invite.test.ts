import { expect, test } from "vitest";
import { renderWaitlistDeclined } from "#server/mail/templates/waitlist-declined.tsx";
import { renderWaitlistInvite } from "#server/mail/templates/waitlist-invite.tsx";
import { addressLines, SITE } from "#src/content/site.ts";

const footer = {
  removeUrl: "https://tieout.example/waitlist/remove?token=REMOVE",
  siteUrl: "https://tieout.example",
};

test("the invitation carries its sign-up link, how long it works, the removal link and the address", () => {
  const mail = renderWaitlistInvite({
    ...footer,
    name: "Ada <b>Lovelace</b>",
    signupUrl: "https://tieout.example/signup?invite=INVITE",
    days: 14,
  });
  expect(mail.subject).toBe(`Your invitation to ${SITE.name}`);
  for (const part of [mail.text, mail.html]) {
    expect(part).toContain("https://tieout.example/signup?invite=INVITE");
    expect(part).toContain("https://tieout.example/waitlist/remove?token=REMOVE");
    expect(part).toContain("The link works for 14 days");
    for (const line of addressLines()) expect(part).toContain(line);
  }
  expect(mail.html).toContain('href="https://tieout.example/signup?invite=INVITE"');
  expect(mail.html).toContain("Ada &lt;b&gt;Lovelace&lt;/b&gt;");
  expect(mail.html).not.toMatch(/<img|<script|<link|url\(/i);
  expect(renderWaitlistInvite({ ...footer, name: "A", signupUrl: "x", days: 1 }).text).toContain(
    "works for 1 day and",
  );
});

test("the decline says so plainly, with the removal link and no other", () => {
  const mail = renderWaitlistDeclined({ ...footer, name: "Bo" });
  expect(mail.subject).toBe(`About your place on the ${SITE.name} waitlist`);
  expect(mail.text).toContain("We are not able to offer you a place in our private beta");
  expect(mail.text).toContain(footer.removeUrl);
  expect(mail.html.match(/href="/g)).toHaveLength(2);
});
