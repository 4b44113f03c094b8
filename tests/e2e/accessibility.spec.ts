/**
 * Accessibility beyond what axe can see (decision 007): keyboard-only journeys, visible and
 * unobscured focus, live regions, focus after navigation and validation, target sizes, reflow at
 * 320 px and 200 % zoom, reduced motion and the demo video's text alternative.
 *
 * Keyboard tests use only `page.keyboard`, from a fresh page load: the first key press is also what
 * starts the page's deferred JavaScript (decision 006), so nothing may be lost on the way.
 */
import type { Locator, Page } from "@playwright/test";
import { oobCodes, uniqueEmail } from "#tests/support/emulator.ts";
import { expect, HYDRATED_PAGE, test, waitForReady } from "#tests/support/fixtures.ts";
import { ALL_PAGES } from "#tests/support/pages.ts";
import {
  BAD_REQUEST_RESPONSE,
  NOT_FOUND_RESPONSE,
  SIGN_IN_FAILED_LOG,
  notFoundLog,
} from "#tests/support/console-messages.ts";

const PASSWORD = "correct-horse-9";
const CHECKED_PAGES = [...ALL_PAGES.map((p) => p.path), "/no-such-page"];
/** What the browser reports on /no-such-page, one of the pages checked. */
const NO_SUCH_PAGE_ERRORS = [notFoundLog("/no-such-page"), NOT_FOUND_RESPONSE];

const header = (page: Page) => page.getByRole("banner");

async function isFocused(target: Locator): Promise<boolean> {
  return target
    .evaluate((el) => el === document.activeElement, undefined, { timeout: 1_000 })
    .catch(() => false);
}

/** Presses Tab (or Shift+Tab) until `target` has focus: proves it is reachable by keyboard. */
async function tabTo(page: Page, target: Locator, key = "Tab", max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    if (await isFocused(target)) return;
  }
  throw new Error(`${String(target)} not reached after ${max} presses of ${key}`);
}

async function typeInto(page: Page, field: Locator, text: string): Promise<void> {
  await tabTo(page, field);
  await page.keyboard.type(text);
}

/** The first Tab press starts the deferred scripts; some checks need React to be running. */
async function hydrateByKeyboard(page: Page): Promise<void> {
  await page.keyboard.press("Tab");
  await page.locator(HYDRATED_PAGE).waitFor({ state: "attached" });
}

test.describe("every journey by keyboard alone", () => {
  test("the first Tab stop is a visible 'Skip to content' link that lands in the main content", async ({
    page,
  }) => {
    await page.goto("/");
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to content" });
    await expect(skip).toBeFocused();
    const box = (await skip.boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(24);
    expect(box.height).toBeGreaterThanOrEqual(24);
    expect(box.y).toBeGreaterThanOrEqual(0);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("main")).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "See it in action" })).toBeFocused();
  });

  test("waitlist: from the home page to 'You're on the list!'", async ({ page }) => {
    await page.goto("/");
    await tabTo(page, header(page).getByRole("link", { name: "Join Waitlist" }));
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL("/waitlist");
    const main = page.getByRole("main");
    await typeInto(page, main.getByLabel("Full Name"), "Kay Board");
    await typeInto(page, main.getByLabel("Email"), uniqueEmail("keyboard"));
    await typeInto(page, main.getByLabel("Company (Optional)"), "Tab & Enter CPAs");
    await tabTo(page, main.getByRole("button", { name: "Join Waitlist" }));
    await page.keyboard.press("Space");
    await expect(page.getByRole("heading", { name: "You're on the list!" })).toBeVisible();
  });

  test("sign-up: creates the account and ends signed in", async ({ page }) => {
    await page.goto("/signup");
    await typeInto(page, page.getByLabel("Email"), uniqueEmail("keys"));
    await typeInto(page, page.getByLabel("Password", { exact: true }), PASSWORD);
    await typeInto(page, page.getByLabel("Confirm Password"), PASSWORD);
    await tabTo(page, page.getByRole("button", { name: "Create Account" }));
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL("/");
    await expect(header(page).getByRole("button", { name: "Sign Out" })).toBeVisible();
  });

  test("sign-in: Enter in the password field signs in", async ({ page, newUser }) => {
    await page.goto("/login");
    await typeInto(page, page.getByLabel("Email"), newUser.email);
    await typeInto(page, page.getByLabel("Password", { exact: true }), newUser.password);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL("/");
    await expect(header(page).getByRole("button", { name: "Sign Out" })).toBeVisible();

    // Signing out on the home page: Sign In takes over the focus Sign Out had.
    await tabTo(page, header(page).getByRole("button", { name: "Sign Out" }));
    await page.keyboard.press("Enter");
    await expect(header(page).getByRole("link", { name: "Sign In" })).toBeFocused();
  });

  test("password reset: request, the emailed link, a new password, and signing in with it", async ({
    page,
    newUser: { email },
  }) => {
    await page.goto("/forgot-password");
    await typeInto(page, page.getByLabel("Email"), email);
    await tabTo(page, page.getByRole("button", { name: "Send Reset Link" }));
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { name: "Check Your Email" })).toBeVisible();
    const reset = (await oobCodes(email)).findLast((c) => c.requestType === "PASSWORD_RESET");
    expect(reset, "the emulator holds the reset email").toBeDefined();

    // The visitor opens the link from their email: a fresh page load.
    await page.goto(
      `/auth/action?mode=resetPassword&oobCode=${encodeURIComponent(reset!.oobCode)}`,
    );
    await expect(page.getByRole("heading", { name: "Choose a New Password" })).toBeVisible();
    await typeInto(page, page.getByLabel("New Password", { exact: true }), "brand-new-pass");
    await typeInto(page, page.getByLabel("Confirm New Password"), "brand-new-pass");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { name: "Password Changed" })).toBeVisible();
    await tabTo(page, page.getByRole("main").getByRole("link", { name: "Sign In" }));
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL("/login");

    await typeInto(page, page.getByLabel("Email"), email);
    await typeInto(page, page.getByLabel("Password", { exact: true }), "brand-new-pass");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL("/");
    await expect(header(page).getByRole("button", { name: "Sign Out" })).toBeVisible();
  });

  test("DPA: Enter on 'Download DPA' saves Tieout_DPA.docx", async ({ page }) => {
    await page.goto("/dpa");
    await tabTo(page, page.getByRole("button", { name: "Download DPA" }));
    const download = page.waitForEvent("download");
    await page.keyboard.press("Enter");
    expect((await download).suggestedFilename()).toBe("Tieout_DPA.docx");
  });
});

type FocusStop = {
  name: string;
  indicator: string | null;
  obscured: string | null;
};

/**
 * What the focused element looks like: its focus indicator must be an outline of at least 2 px
 * with 3:1 contrast against what surrounds it, on an element that is not faded out, and the
 * element must be inside the viewport and not under the fixed header.
 */
async function describeFocus(): Promise<FocusStop | null> {
  const el = document.activeElement;
  if (!el || el === document.body || el === document.documentElement) return null;
  // Judge what a person sees once things settle: after the colour transition, and after the
  // frames in which sections laid out lazily (content-visibility) take their real size.
  await Promise.all(el.getAnimations().map((a) => a.finished.catch(() => undefined)));
  for (let i = 0; i < 2; i++) await new Promise((r) => requestAnimationFrame(r));
  const name =
    `${el.tagName.toLowerCase()} "${(el.getAttribute("aria-label") ?? (el as HTMLElement).innerText ?? "").trim().slice(0, 40)}"` +
    (el.getAttribute("href") ? ` ${el.getAttribute("href")}` : "");

  const parse = (color: string) => {
    const m = /rgba?\(([\d.]+),? ([\d.]+),? ([\d.]+)(?:,? \/? ?([\d.]+))?\)/.exec(color);
    return m
      ? [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])]
      : null;
  };
  const blend = (top: number[], bottom: number[]) =>
    [0, 1, 2].map((i) => top[i]! * top[3]! + bottom[i]! * (1 - top[3]!)).concat(1);
  /** The colour behind `start`, blending translucent backgrounds down to an opaque one. */
  const backgroundBehind = (start: Element | null) => {
    const layers: number[][] = [];
    for (let node = start; node; node = node.parentElement) {
      const c = parse(getComputedStyle(node).backgroundColor);
      if (c && c[3]! > 0) {
        layers.push(c);
        if (c[3] === 1) break;
      }
    }
    return layers.reduceRight((under, layer) => blend(layer, under), [255, 255, 255, 1]);
  };
  const luminance = (c: number[]) => {
    const [r, g, b] = c.slice(0, 3).map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const contrast = (a: number[], b: number[]) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi! + 0.05) / (lo! + 0.05);
  };

  const style = getComputedStyle(el);
  let indicator: string | null = null;
  const width = parseFloat(style.outlineWidth);
  const outline = parse(style.outlineColor);
  if (style.outlineStyle === "none" || width < 2 || !outline || outline[3] === 0) {
    indicator = `no outline (${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor})`;
  } else {
    // An outline drawn outside the element is seen against its parent's background.
    const behind = backgroundBehind(parseFloat(style.outlineOffset) >= 0 ? el.parentElement : el);
    const ratio = contrast(blend(outline, behind), behind);
    if (ratio < 3) indicator = `outline contrast ${ratio.toFixed(2)}:1`;
  }
  for (let node: Element | null = el; node; node = node.parentElement) {
    const s = getComputedStyle(node);
    if (Number(s.opacity) < 0.6 || s.visibility !== "visible")
      indicator = `faded (opacity ${s.opacity}, ${s.visibility})`;
  }

  const box = el.getBoundingClientRect();
  const banner = [...document.querySelectorAll("header")].find(
    (h) => getComputedStyle(h).position === "fixed",
  );
  const inHeader = !!banner && banner.contains(el);
  const fixed = style.position === "fixed";
  const top = inHeader || fixed || !banner ? 0 : banner.getBoundingClientRect().bottom;
  let obscured: string | null = null;
  if (box.width === 0 || box.height === 0) obscured = "has no size";
  else if (box.left < 0 || box.right > window.innerWidth + 0.5)
    obscured = `outside the viewport horizontally (${box.left}..${box.right})`;
  else if (
    box.height <= window.innerHeight - top &&
    (box.top < top - 0.5 || box.bottom > window.innerHeight + 0.5)
  )
    obscured = `not fully visible below the header (${box.top}..${box.bottom}, header ends at ${top})`;
  else if (box.bottom <= top || box.top >= window.innerHeight)
    obscured = `off screen (${box.top}..${box.bottom})`;
  return { name, indicator, obscured };
}

test.describe("visible focus on every control", () => {
  test.use({ expectedConsoleErrors: NO_SUCH_PAGE_ERRORS });

  for (const path of CHECKED_PAGES) {
    test(`${path}: Tab and Shift+Tab reach every control, each with a visible, unobscured focus ring`, async ({
      page,
    }) => {
      await page.goto(path);
      // The walk is of the page as it stays: the app, started by the first Tab, would otherwise
      // hydrate in the middle of it, and a control it takes over (a radio group before and after)
      // can count as a stop twice. Keys pressed before the app: tests/e2e/hydration-loader.spec.ts.
      await waitForReady(page);
      const forward: FocusStop[] = [];
      for (let i = 0; i < 200; i++) {
        await page.keyboard.press("Tab");
        const stop = await page.evaluate(describeFocus);
        if (!stop) break;
        if (forward.length > 0 && stop.name === forward[0]!.name) break;
        forward.push(stop);
      }
      expect(forward[0]!.name).toContain("Skip to content");
      // Every control on the page was reached: none is skipped or traps the keyboard. A group of
      // radio buttons is one stop, as browsers make it (the arrow keys move within it).
      const controls = await page.evaluate(() => {
        const radioGroups = new Set<string>();
        return [
          ...document.querySelectorAll<HTMLElement>(
            "a[href], button, input, select, textarea, video[controls], [tabindex]",
          ),
        ].filter((el) => {
          const input = el as HTMLInputElement;
          if (input.type === "radio") {
            if (radioGroups.has(input.name)) return false;
            radioGroups.add(input.name);
          }
          return (
            el.tabIndex >= 0 &&
            !(el as HTMLButtonElement).disabled &&
            input.type !== "hidden" &&
            el.checkVisibility({ visibilityProperty: true })
          );
        }).length;
      });
      expect(forward.length, "controls reached by Tab").toBe(controls);

      // Backwards, from wherever forward ended: headings scroll in at the top, under the header.
      const backward: FocusStop[] = [];
      for (let i = 0; i < forward.length + 2; i++) {
        await page.keyboard.press("Shift+Tab");
        const stop = await page.evaluate(describeFocus);
        if (!stop) continue;
        backward.push(stop);
        if (stop.name === forward[0]!.name) break;
      }
      expect(backward.length, "controls reached by Shift+Tab").toBeGreaterThan(4);

      const problems = [...forward, ...backward]
        .filter((s) => s.indicator || s.obscured)
        .map((s) => `${s.name}: ${[s.indicator, s.obscured].filter(Boolean).join("; ")}`);
      expect([...new Set(problems)]).toEqual([]);
    });
  }
});

test.describe("notices are announced through a live region", () => {
  test.use({ expectedConsoleErrors: [SIGN_IN_FAILED_LOG, BAD_REQUEST_RESPONSE] });

  test("a failed sign-in's message lands in a live region that was already in the page", async ({
    page,
    newUser: { email },
  }) => {
    await page.goto("/login");
    // Screen readers announce changes to live regions they already know, not new ones: mark those
    // present before the notice.
    await page.evaluate(() => {
      for (const el of document.querySelectorAll("[aria-live], [role=alert], [role=status]"))
        el.setAttribute("data-before-notice", "");
    });
    await typeInto(page, page.getByLabel("Email"), email);
    await typeInto(page, page.getByLabel("Password", { exact: true }), "not-the-password");
    await page.keyboard.press("Enter");

    const message = "Incorrect password. Please try again.";
    const liveRegions = page.locator(
      ":is([aria-live=polite], [aria-live=assertive], [role=alert]:not([aria-live=off]), [role=status]:not([aria-live=off]))",
    );
    await expect(
      liveRegions.and(page.locator("[data-before-notice]")).filter({ hasText: message }),
    ).toHaveCount(1);
    await expect(liveRegions.filter({ hasText: "Sign In Failed" })).toHaveCount(1);
    // Said once: not a second time by another region.
    await expect(liveRegions.filter({ hasText: message })).toHaveCount(1);
    // And shown on screen, as a notice.
    await expect(
      page.getByRole("region", { name: /Notifications/ }).getByRole("listitem"),
    ).toContainText(message);
  });
});

test.describe("focus after navigation and after validation", () => {
  test("a client-side route change moves focus to the new page's heading and updates the title", async ({
    page,
  }) => {
    await page.goto("/");
    await hydrateByKeyboard(page);
    await tabTo(page, header(page).getByRole("link", { name: "Sign In" }));
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL("/login");
    await expect(page).toHaveTitle("Sign In | Tieout");
    await expect(page.getByRole("heading", { level: 1, name: "Sign In" })).toBeFocused();
    // The next Tab continues from there, into the form.
    await page.keyboard.press("Tab");
    await expect(page.getByLabel("Email")).toBeFocused();

    await tabTo(page, page.getByRole("contentinfo").getByRole("link", { name: "Contact" }));
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL("/contact");
    await expect(page).toHaveTitle("Contact | Tieout");
    await expect(page.getByRole("heading", { level: 1, name: "Get in Touch" })).toBeFocused();
    // Still a real page view: it starts at the top.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });

  async function expectInvalid(field: Locator, error: string) {
    await expect(field).toBeFocused();
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(field).toHaveAccessibleDescription(new RegExp(error.replace(/\./g, "\\.")));
    const describedBy = (await field.getAttribute("aria-describedby")) ?? "";
    const texts = await Promise.all(
      describedBy
        .split(/\s+/)
        .filter(Boolean)
        .map((id) => field.page().locator(`[id="${id}"]`).innerText()),
    );
    expect(texts, "aria-describedby points at the visible error").toContain(error);
  }

  test("waitlist: empty, then a bad email", async ({ page }) => {
    await page.goto("/waitlist");
    const main = page.getByRole("main");
    await tabTo(page, main.getByRole("button", { name: "Join Waitlist" }));
    await page.keyboard.press("Enter");
    await expectInvalid(main.getByLabel("Full Name"), "Please enter your name.");
    await page.keyboard.type("Val Idation");
    await typeInto(page, main.getByLabel("Email"), "not-an-email");
    await page.keyboard.press("Enter");
    await expectInvalid(main.getByLabel("Email"), "Please enter a valid email address.");
    await expect(main.getByLabel("Full Name")).not.toHaveAttribute("aria-invalid", "true");
  });

  test("sign-in: empty, then a bad email, then no password", async ({ page }) => {
    await page.goto("/login");
    await tabTo(page, page.getByRole("button", { name: "Sign In", exact: true }));
    await page.keyboard.press("Enter");
    await expectInvalid(page.getByLabel("Email"), "Please enter your email address.");
    await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute(
      "aria-invalid",
      "true",
    );
    await page.keyboard.type("not-an-email");
    await page.keyboard.press("Enter");
    await expectInvalid(page.getByLabel("Email"), "Please enter a valid email address.");
    await page.keyboard.press("Control+A");
    await page.keyboard.type("someone@example.com");
    await page.keyboard.press("Enter");
    await expectInvalid(
      page.getByLabel("Password", { exact: true }),
      "Please enter your password.",
    );
    await expect(page.getByLabel("Email")).not.toHaveAttribute("aria-invalid", "true");
    await expect(page).toHaveURL("/login");
  });

  test("sign-up: empty, then a bad email", async ({ page }) => {
    await page.goto("/signup");
    await tabTo(page, page.getByRole("button", { name: "Create Account" }));
    await page.keyboard.press("Enter");
    await expectInvalid(page.getByLabel("Email"), "Please enter your email address.");
    await page.keyboard.type("still wrong");
    await typeInto(page, page.getByLabel("Password", { exact: true }), PASSWORD);
    await typeInto(page, page.getByLabel("Confirm Password"), PASSWORD);
    await page.keyboard.press("Enter");
    await expectInvalid(page.getByLabel("Email"), "Please enter a valid email address.");
    await expect(page).toHaveURL("/signup");
  });
});

test.describe("targets are at least 24 by 24 CSS pixels", () => {
  test.use({ expectedConsoleErrors: NO_SUCH_PAGE_ERRORS });

  for (const width of [1280, 320]) {
    test(`every link and button outside running text, at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      const small: string[] = [];
      for (const path of CHECKED_PAGES) {
        await page.goto(path);
        const found = await page.evaluate(() => {
          const out: string[] = [];
          const blockOf = (el: Element) => {
            let node = el.parentElement;
            while (node && getComputedStyle(node).display.startsWith("inline"))
              node = node.parentElement;
            return node;
          };
          for (const el of document.querySelectorAll<HTMLElement>(
            "a[href], button, [role=button], input[type=checkbox], input[type=radio], summary",
          )) {
            const style = getComputedStyle(el);
            if (style.display === "none" || style.visibility === "hidden") continue;
            // WCAG 2.5.8's inline exception: a link inside a sentence is sized by its text.
            const block = blockOf(el);
            if (
              style.display === "inline" &&
              block &&
              block.textContent.replace(/\s+/g, "").length >
                el.textContent.replace(/\s+/g, "").length
            )
              continue;
            let box = el.getBoundingClientRect();
            // Visually hidden until focused (the skip link): measure it as it appears.
            if (box.width <= 1 && box.height <= 1) {
              el.focus();
              box = el.getBoundingClientRect();
              el.blur();
              if (box.width <= 1 && box.height <= 1) continue;
            }
            if (box.width < 24 || box.height < 24)
              out.push(
                `${el.tagName.toLowerCase()} "${(el.getAttribute("aria-label") ?? el.innerText).trim().slice(0, 40)}" ${Math.round(box.width)}x${Math.round(box.height)}`,
              );
          }
          return out;
        });
        small.push(...found.map((f) => `${path}: ${f}`));
      }
      expect([...new Set(small)]).toEqual([]);
    });
  }
});

test.describe("usable at 320 px and at 200 % zoom", () => {
  // 1280 x 800 at 200 % zoom is a 640 x 400 CSS-pixel viewport.
  for (const viewport of [
    { width: 320, height: 640 },
    { width: 640, height: 400 },
  ]) {
    test.describe(`${viewport.width} x ${viewport.height}`, () => {
      test.use({ viewport, expectedConsoleErrors: NO_SUCH_PAGE_ERRORS });

      test("no page scrolls sideways and the header's links stay on screen", async ({ page }) => {
        const problems: string[] = [];
        for (const path of CHECKED_PAGES) {
          await page.goto(path);
          const { scrollWidth, clientWidth } = await page.evaluate(() => ({
            scrollWidth: document.scrollingElement!.scrollWidth,
            clientWidth: document.scrollingElement!.clientWidth,
          }));
          if (scrollWidth > clientWidth) problems.push(`${path}: scrolls to ${scrollWidth}px`);
          for (const control of [
            header(page).getByRole("link", { name: /home$/ }),
            header(page).getByRole("link", { name: "Sign In" }),
            header(page).getByRole("link", { name: /Waitlist/ }),
          ]) {
            await expect(control).toBeVisible();
            const box = (await control.boundingBox())!;
            if (box.x < 0 || box.x + box.width > viewport.width)
              problems.push(`${path}: ${String(control)} spans ${box.x}..${box.x + box.width}`);
          }
        }
        expect(problems).toEqual([]);
      });

      test("the header leads to the waitlist, and its form can be sent", async ({ page }) => {
        await page.goto("/");
        await tabTo(page, header(page).getByRole("link", { name: /Waitlist/ }));
        await page.keyboard.press("Enter");
        await expect(page).toHaveURL("/waitlist");
        const main = page.getByRole("main");
        await typeInto(page, main.getByLabel("Full Name"), "Zoe Oom");
        await typeInto(page, main.getByLabel("Email"), uniqueEmail(`zoom${viewport.width}`));
        await tabTo(page, main.getByRole("button", { name: "Join Waitlist" }));
        await page.keyboard.press("Enter");
        await expect(page.getByRole("heading", { name: "You're on the list!" })).toBeInViewport();
      });
    });
  }
});

test.describe("reduced motion", () => {
  test.use({ reducedMotion: "reduce" });

  test("nothing moves for longer than an instant, scrolling is not smooth, and the video waits", async ({
    page,
  }) => {
    await page.goto("/");
    await hydrateByKeyboard(page);
    // Hover and focus the controls that animate for everyone else.
    await page.getByRole("link", { name: "Play the demo video" }).hover();
    await tabTo(page, page.getByRole("link", { name: "See it in action" }));
    await page.getByRole("link", { name: "Watch the demo" }).hover();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/#demo$/);

    const motion = await page.evaluate(() => {
      const running = document
        .getAnimations()
        .map((a) => ({
          name:
            a instanceof CSSTransition ? a.transitionProperty : (a as CSSAnimation).animationName,
          duration: Number(a.effect?.getComputedTiming().duration ?? 0),
          state: a.playState,
        }))
        .filter((a) => a.state === "running" && a.duration > 10);
      const slowTransitions = [
        ...document.querySelectorAll("a, button, input, textarea, img, span"),
      ]
        .map((el) => ({
          el: `${el.tagName} ${(el as HTMLElement).innerText?.slice(0, 30)}`,
          longest: Math.max(
            ...getComputedStyle(el)
              .transitionDuration.split(",")
              .map((d) => parseFloat(d) * (d.trim().endsWith("ms") ? 1 : 1000)),
          ),
        }))
        .filter((t) => t.longest > 10);
      return {
        running,
        slowTransitions,
        scrollBehavior: getComputedStyle(document.documentElement).scrollBehavior,
        playing: [...document.querySelectorAll("video")].filter((v) => !v.paused).length,
        autoplay: document.querySelectorAll("video[autoplay], iframe[src*='autoplay=1']").length,
      };
    });
    expect(motion.running).toEqual([]);
    expect(motion.slowTransitions).toEqual([]);
    expect(motion.scrollBehavior).toBe("auto");
    expect(motion.playing).toBe(0);
    expect(motion.autoplay).toBe(0);
  });
});

test("the demo video has captions and a text description that assistive technology reaches", async ({
  page,
  request,
}) => {
  await page.goto("/");
  const poster = page.getByRole("link", { name: "Play the demo video" });
  await expect(poster).toHaveAccessibleDescription(/silent walk-through/);
  await expect(poster).toHaveAccessibleDescription(/M1 adjustments/);
  await tabTo(page, poster);
  await page.keyboard.press("Enter");

  const video = page.locator("video");
  await expect(video).toBeFocused();
  await expect(video).toHaveAccessibleDescription(/silent walk-through/);
  const track = video.locator("track[kind=captions]");
  await expect(track).toHaveAttribute("srclang", "en");
  const captions = await request.get((await track.getAttribute("src"))!);
  expect(captions.status()).toBe(200);
  expect(captions.headers()["content-type"]).toContain("text/vtt");
  const vtt = await captions.text();
  expect(vtt.startsWith("WEBVTT")).toBe(true);
  expect(vtt.match(/-->/g)?.length ?? 0).toBeGreaterThan(3);
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.textTracks[0]?.mode))
    .toBe("showing");
});
