/**
 * No first press is lost on a page that belongs to someone (decision 009): the pages behind the
 * links in the site's mails, a member's account, the administrator's pages. Every control on them
 * is pressed by mouse and by touch as the very first action, and must work as on a ready page
 * (tests/support/first-press.ts).
 *
 * Each press gets a world of its own, made the same way: a new lead and the link in its mail, a
 * new member signed in, the administrator signed in (with entries of its own on the waitlist page,
 * whose buttons change them). So the press on a ready page and the first press start from the
 * same state, and what differs by construction (an address, a token; on the account and admin
 * pages, figures and times) is masked before the two are compared. The server is this worker's
 * own, with its mail caught by a real SMTP server, so no other spec's data shows on the admin pages.
 */
import routes from "#src/routes.ts";
import { expect, test } from "#tests/support/fixtures.ts";
import {
  firstPressMismatches,
  INPUTS,
  PUBLIC_PRESS_PAGES,
  type Input,
  type Scope,
} from "#tests/support/first-press.ts";
import {
  forgetOwnedPageMembers,
  OWNED_PAGES,
  OWNED_SERVER_ENV,
  prepareOwnedPages,
} from "#tests/support/owned-pages.ts";

test.use({ ownServerEnv: OWNED_SERVER_ENV });
test.beforeAll(({ ownServer: server, mailSink: smtp }) => prepareOwnedPages({ server, smtp }));
test.afterAll(forgetOwnedPageMembers);

/*
 * The admin pages' navigation is one component, the same on each (src/ui/admin-nav.tsx): its links
 * are pressed on the dashboard, as the header's and footer's are on the home page, and every other
 * admin page presses its own controls, the buttons the navigation carries among them.
 */
const ADMIN_NAV = 'nav[aria-label="Admin pages"]';
const scopeOf = (path: string): Scope =>
  path.startsWith("/admin/") ? { within: "main", sharedNav: ADMIN_NAV } : "main";

for (const [path, open] of Object.entries(OWNED_PAGES)) {
  for (const input of Object.keys(INPUTS) as Input[]) {
    test(`${path}, ${input}: the first press on every control works as on a ready page`, async ({
      browser,
      ownServer: server,
      mailSink: smtp,
    }) => {
      test.setTimeout(300_000);
      const visit = open({ server, smtp });
      const { pressed, shared, mismatches } = await firstPressMismatches(
        browser,
        input,
        visit,
        scopeOf(path),
      );
      test.info().annotations.push({ type: "controls", description: String(pressed) });
      // A page whose own controls do not show at this width (a phone's empty log) still has the
      // shared navigation, pressed on the dashboard: a page that drew nothing fails here.
      expect(pressed + shared, "controls found").toBeGreaterThan(0);
      expect(mismatches, "controls whose first press did not work").toEqual([]);
    });
  }
}

/**
 * Every page of the site is pressed: the public ones in first-press.spec.ts, the rest here. A new
 * route joins one or the other, or this fails. (/account/data is the account page's "Download my
 * data", pressed there; any unknown path is the not-found page.)
 */
test("every route of the site is in a first-press test", () => {
  const covered = new Set([
    ...PUBLIC_PRESS_PAGES.map((p) => new URL(p, "http://site").pathname),
    ...Object.keys(OWNED_PAGES),
    "/account/data",
  ]);
  const paths = routes.filter((r) => r.path !== "*").map((r) => (r.index ? "/" : `/${r.path}`));
  expect(paths.filter((p) => !covered.has(p))).toEqual([]);
  expect(PUBLIC_PRESS_PAGES).toContain("/no-such-page");
});
