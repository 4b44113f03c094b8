/**
 * The loader at the top of every page (decisions 009 and 018). It is not part of the app's bundle:
 * the build compiles it on its own (scripts/hydration-loader.mjs) and the server writes the result
 * inline at the top of <head>, after only the landing note (server/pages/html.ts), so it runs before the
 * page is parsed.
 *
 * Until React has hydrated the page, every press is held and replayed once it has: a click (mouse,
 * touch, Enter or Space on a focused control) on anything at all, links included, and a form's
 * submission. Checkboxes and radios are the browser's to toggle at once (the choice shows without
 * waiting); their last state is handed to React when it is ready. Nothing is registered per control, so a control added tomorrow is covered without
 * anyone remembering it. Exempt is what the browser alone does right: a modified or non-primary
 * click (open in a new tab), a click in a text field or on a native media player. A press that
 * React has not taken within NATIVE_FALLBACK_MS gets the browser's own default action instead: the
 * link is followed, the form is posted (every form here also works without JavaScript).
 *
 * On a deferred page (DEFER_ATTRIBUTE="DEFER_VALUE" on <html>), React Router's module script is
 * kept as inert data and started on the first sign of a person.
 */
import {
  DEFER_ATTRIBUTE,
  DEFER_VALUE,
  DEFERRED_APP_ID,
  HYDRATED_ATTRIBUTE,
  HYDRATED_EVENT,
  NATIVE_FALLBACK_MS,
} from "#src/lib/hydration-protocol.ts";

/** The first signs of a person, any of which starts a deferred page's app. */
const SIGNS_OF_A_PERSON = ["pointerdown", "mousemove", "keydown", "touchstart", "focusin", "wheel"];
/** Where a click belongs to the browser alone: text entry and native media controls. */
const NATIVE_CONTROLS = "video,audio,textarea,select,[contenteditable]";
/**
 * Set when the build compiles the loader (scripts/hydration-loader.mjs): whether this copy lets
 * checkboxes and radios toggle before React is ready. The server gives that copy to pages that
 * have them and the smaller one, which holds them like any press, to every other page.
 */
declare const __LOADER_TOGGLES__: boolean;

/** Inputs that are pressed rather than typed in; a click on any other input is left alone. */
const PRESSABLE_INPUT = __LOADER_TOGGLES__
  ? /^(submit|image|button|reset)$/
  : /^(checkbox|radio|submit|image|button|reset)$/;
/** Inputs the browser toggles itself: the choice shows at once, and React hears of it later. */
const TOGGLE = /^(checkbox|radio)$/;

export function installHydrationLoader(): void {
  const root = document.documentElement;
  const held: (() => void)[] = [];
  const ready = () => root.hasAttribute(HYDRATED_ATTRIBUTE);
  let started = root.getAttribute(DEFER_ATTRIBUTE) !== DEFER_VALUE;
  // True while a held press is given back to the browser for its default action.
  let native = false;

  const runApp = () => {
    const app = document.getElementById(DEFERRED_APP_ID);
    if (!app) return;
    // The same text as the server's module script, so the page's CSP hash for it still applies.
    const script = document.createElement("script");
    script.type = "module";
    script.textContent = app.textContent;
    document.head.append(script);
  };
  const start = () => {
    if (started) return;
    started = true;
    for (const sign of SIGNS_OF_A_PERSON) window.removeEventListener(sign, start, true);
    if (document.readyState === "loading")
      document.addEventListener("DOMContentLoaded", runApp, { once: true });
    else runApp();
  };
  if (!started)
    for (const sign of SIGNS_OF_A_PERSON)
      window.addEventListener(sign, start, { capture: true, passive: true });

  /** Stops the press now; does it again when React is ready, or natively if React never comes. */
  const hold = (event: Event, press: () => void) => {
    event.preventDefault();
    event.stopImmediatePropagation();
    start();
    let done = false;
    held.push(() => {
      if (done) return;
      done = true;
      press();
    });
    setTimeout(() => {
      if (done || ready()) return;
      done = true;
      native = true;
      try {
        press();
      } finally {
        native = false;
      }
    }, NATIVE_FALLBACK_MS);
  };

  /** The element a held click is replayed on, or null when the click is the browser's alone. */
  const pressedElement = (target: EventTarget | null): HTMLElement | null => {
    if (!(target instanceof Element) || target.closest(NATIVE_CONTROLS)) return null;
    if (target instanceof HTMLInputElement && !PRESSABLE_INPUT.test(target.type)) return null;
    // A click on an icon inside a button lands on an SVG element: replay it on the nearest HTML one.
    let element: Element | null = target;
    while (element && !(element instanceof HTMLElement)) element = element.parentElement;
    return element;
  };

  window.addEventListener(
    "click",
    (event) => {
      if (ready() || native || !event.isTrusted || event.button !== 0) return;
      if (event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
      // Any element of the page; `type` is read only to find checkboxes and radios.
      const target = event.target as HTMLInputElement;
      // A checkbox or radio: the browser has toggled it already (it toggles, then dispatches), so
      // the choice shows at once. Once React is ready the press is made again from the other
      // state, so the page's change handlers hear of it, even if hydrating put the old state back.
      if (__LOADER_TOGGLES__ && TOGGLE.test(target.type)) {
        start();
        const chosen = target.checked;
        held.push(() => {
          target.checked = !chosen;
          target.click();
        });
        return;
      }
      // A click on such an input's label reaches the input as a click of its own.
      if (
        __LOADER_TOGGLES__ &&
        TOGGLE.test((target.closest("label")?.control as HTMLInputElement | null)?.type ?? "")
      )
        return;
      const element = pressedElement(target);
      if (element) hold(event, () => element.click());
    },
    true,
  );
  window.addEventListener(
    "submit",
    (event) => {
      if (ready() || native || !(event.target instanceof HTMLFormElement)) return;
      const form = event.target;
      const submitter = event.submitter;
      hold(event, () => form.requestSubmit(submitter));
    },
    true,
  );
  window.addEventListener(HYDRATED_EVENT, () => {
    for (const replay of held.splice(0)) replay();
  });
}
