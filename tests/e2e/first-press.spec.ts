/**
 * No first press is lost on a public page, whatever the control (decision 009): every control of
 * every public page, pressed by mouse and by touch as the very first action, works as on a ready
 * page (tests/support/first-press.ts). Pages that belong to someone have their own spec
 * (first-press-owned.spec.ts).
 */
import { expect, HYDRATED_PAGE, test } from "#tests/support/fixtures.ts";
import {
  APP_ENTRY,
  firstPressMismatches,
  INPUTS,
  PUBLIC_PRESS_PAGES,
  type Input,
} from "#tests/support/first-press.ts";

for (const path of PUBLIC_PRESS_PAGES) {
  for (const input of Object.keys(INPUTS) as Input[]) {
    test(`${path}, ${input}: the first press on every control works as on a ready page`, async ({
      browser,
    }) => {
      // Two page loads per control, one of them at a quarter of the CPU: the home page has many.
      test.setTimeout(240_000);
      // The header's and footer's links, the same everywhere, are pressed on the home page.
      const scope = path === "/" ? "body" : "main";
      const { pressed, mismatches } = await firstPressMismatches(
        browser,
        input,
        () => Promise.resolve({ url: path }),
        scope,
      );
      test.info().annotations.push({ type: "controls", description: String(pressed) });
      expect(mismatches, "controls whose first press did not work").toEqual([]);
    });
  }
}

test.describe("on a phone", () => {
  test.use(INPUTS.touch);

  test("a signed-in visitor's first press, on the header's Menu, opens it, and Sign Out in it signs them out", async ({
    signedInUser: _signedIn,
    context,
    page,
  }) => {
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    // A signed-in visitor's page starts its app at once: hold its entry script until the press.
    let release = () => {};
    const pressed = new Promise<void>((resolve) => (release = resolve));
    await page.route(APP_ENTRY, async (route) => {
      await pressed;
      await route.continue();
    });
    await page.goto("/contact");
    // On a phone the account's controls are in the header's Menu (decision 013).
    const menu = page.getByRole("banner").getByText("Menu", { exact: true });
    const signOut = page.getByRole("banner").getByRole("button", { name: "Sign Out" });
    await expect(page.locator(HYDRATED_PAGE)).toHaveCount(0);
    await menu.tap();
    release();
    await signOut.tap();
    await expect(page).toHaveURL("/");
    await expect(page.getByRole("banner").getByRole("link", { name: "Sign In" })).toBeVisible();
  });
});
