/**
 * The loader at the top of every page (decisions 009, 018 and 040). It is not part of the app's
 * bundle: the build compiles it on its own (scripts/hydration-loader.mjs) and the server writes the
 * result inline at the top of <head>, after only the landing note (server/pages/html.ts), so it
 * runs before the page is parsed.
 *
 * Until React has hydrated the page, a press is answered at once (decision 040):
 * - What the browser alone does right is left to it, as it would be with JavaScript off: a link is
 *   followed, a form that names where it goes (an `action`) is sent, a disclosure (<summary>)
 *   opens, a checkbox or radio toggles (React hears of its state once it is ready), a click in a
 *   text field or on a media player is the browser's. A press on such a link or form, or typing
 *   into such a form, does not start the app, so nothing it would fetch or run competes with the
 *   next page. A link or form that needs the app anyway says so with NEEDS_APP_ATTRIBUTE.
 * - Every other press (a button that works by script, a form without an `action`) is held and made
 *   again once React is ready, and shows now what its ARIA attributes promise: a toggle with
 *   `aria-pressed` flips it (and reveals or hides the password field it controls), a button with
 *   `aria-expanded` flips it (and shows or hides what it controls), and any other control is
 *   marked `aria-busy` until the app takes the press. These marks are undone just before the press
 *   is made again, in the same task, so React finds the page as it rendered it and the visitor
 *   sees no flicker. A held press that React has not taken within NATIVE_FALLBACK_MS gets the
 *   browser's default action instead.
 * Nothing is registered per control, so a control added tomorrow is covered without anyone
 * remembering it; a modified or non-primary click (open in a new tab) is always the browser's.
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
  LANDING_FIELD,
  LANDING_NOTE_KEY,
  NATIVE_FALLBACK_MS,
  NEEDS_APP_ATTRIBUTE,
} from "#src/lib/hydration-protocol.ts";

/** The first signs of a person, any of which starts a deferred page's app. */
const SIGNS_OF_A_PERSON = ["pointerdown", "mousemove", "keydown", "touchstart", "focusin", "wheel"];
/**
 * The events React takes, on a page it has not finished hydrating, as a reason to finish at once,
 * in one task, before the event is answered: a press by mouse, touch, pen or key, what typing and
 * pasting send, the `change` a field sends when a press elsewhere takes its focus, a form's submit
 * and reset. At a phone's speed that task is about 200 ms.
 */
const KEPT_FROM_THE_APP =
  "pointerdown pointerup pointercancel mousedown mouseup touchstart touchend touchcancel click auxclick dblclick contextmenu keydown keypress keyup input change compositionstart compositionend copy cut paste dragstart dragend drop submit reset".split(
    " ",
  );
/**
 * A click with a modifier key or another button than the first (a new tab, a selection): the
 * browser's and the app's, as they would have it, never held or kept back.
 */
const modifiedClick = (event: Event): boolean =>
  /click$/.test(event.type) &&
  event instanceof MouseEvent &&
  (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey);
/** Where a click belongs to the browser alone: text entry, native media controls, disclosures. */
const NATIVE_CONTROLS = "video,audio,textarea,select,[contenteditable],summary";
const NEEDS_APP = `[${NEEDS_APP_ATTRIBUTE}]`;
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

/** A form the browser sends as well as the app: it names where it goes, and needs no script. */
const sentByBrowser = (form: HTMLFormElement | null, submitter?: Element | null): boolean =>
  !!form &&
  form.hasAttribute("action") &&
  !form.matches(NEEDS_APP) &&
  !submitter?.matches(NEEDS_APP);

/** The submit button an element is (or is in), when it is one. */
const submitButton = (element: Element): HTMLButtonElement | null => {
  // A button's type is "submit", "button" or "reset"; an input's may also be "image".
  const button = element.closest<HTMLButtonElement>("button,input");
  return button && /^(submit|image)$/.test(button.type) ? button : null;
};

/** Whether a press on this target leaves the page the way it would with JavaScript off. */
const leavesPage = (target: EventTarget | null): boolean => {
  if (!(target instanceof Element)) return false;
  const link = target.closest("a[href]");
  if (link) return !link.matches(NEEDS_APP);
  const submitter = submitButton(target);
  return !!submitter && sentByBrowser(submitter.form, submitter);
};

export function installHydrationLoader(): void {
  const root = document.documentElement;
  const held: (() => void)[] = [];
  /** How to take back what held presses show, newest last. */
  const marks: (() => void)[] = [];
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
    for (const sign of SIGNS_OF_A_PERSON) window.removeEventListener(sign, onSign, true);
    if (document.readyState === "loading")
      document.addEventListener("DOMContentLoaded", runApp, { once: true });
    else runApp();
  };
  // A press on a link, or typing into a form the browser sends, needs nothing of the app: it would
  // only compete with the next page. Any other sign of a person starts it.
  const onSign = (event: Event) => {
    const target = event.target;
    if (leavesPage(target) || (target instanceof Element && sentByBrowser(target.closest("form"))))
      return;
    start();
  };
  if (!started)
    for (const sign of SIGNS_OF_A_PERSON)
      window.addEventListener(sign, onSign, { capture: true, passive: true });

  /** Sets (or with null, removes) an attribute until the marks are taken back. */
  const mark = (element: Element, name: string, value: string | null) => {
    const before = element.getAttribute(name);
    if (value === null) element.removeAttribute(name);
    else element.setAttribute(name, value);
    marks.push(() => {
      if (before === null) element.removeAttribute(name);
      else element.setAttribute(name, before);
    });
  };
  const takeBackMarks = () => {
    for (const undo of marks.splice(0).reverse()) undo();
  };
  /** What the pressed control shows now, from what its ARIA attributes say it does. */
  const answerNow = (control: HTMLElement) => {
    const controlled = document.getElementById(
      (control.getAttribute("aria-controls") ?? "").split(" ")[0] ?? "",
    );
    const pressed = control.getAttribute("aria-pressed");
    const expanded = control.getAttribute("aria-expanded");
    if (pressed === "true" || pressed === "false") {
      mark(control, "aria-pressed", pressed === "true" ? "false" : "true");
      if (controlled instanceof HTMLInputElement && /^(password|text)$/.test(controlled.type))
        mark(controlled, "type", controlled.type === "password" ? "text" : "password");
    } else if (expanded === "true" || expanded === "false") {
      mark(control, "aria-expanded", expanded === "true" ? "false" : "true");
      if (controlled) mark(controlled, "hidden", expanded === "true" ? "" : null);
    } else mark(control, "aria-busy", "true");
  };

  /** Stops the press now; does it again when React is ready, or natively if React never comes. */
  const hold = (event: Event, control: HTMLElement | null, press: () => void) => {
    event.preventDefault();
    event.stopImmediatePropagation();
    start();
    if (control) answerNow(control);
    let done = false;
    held.push(() => {
      if (done) return;
      done = true;
      press();
    });
    setTimeout(() => {
      if (done || ready()) return;
      done = true;
      takeBackMarks();
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
    if (!(target instanceof Element) || target.closest(NATIVE_CONTROLS) || leavesPage(target))
      return null;
    if (target instanceof HTMLInputElement && !PRESSABLE_INPUT.test(target.type)) return null;
    // A click on an icon inside a button lands on an SVG element: replay it on the nearest HTML one.
    let element: Element | null = target;
    while (element && !(element instanceof HTMLElement)) element = element.parentElement;
    return element;
  };

  // Until React is ready, these events go no further than the window. Nothing in the app could
  // answer them yet: the loader answers a press (above and below) and gives it back once React is
  // ready, and React reads what was typed into its fields when it hydrates them, as it does for
  // what was typed before its script arrived. React hearing of one would only make it finish
  // hydrating at once, holding up the answer. The browser's own action still happens.
  const keepFromApp = (event: Event) => {
    if (ready() || native || !event.isTrusted || modifiedClick(event)) return;
    event.stopPropagation();
  };
  for (const type of KEPT_FROM_THE_APP) window.addEventListener(type, keepFromApp, true);

  window.addEventListener(
    "click",
    (event) => {
      if (ready() || native || !event.isTrusted || modifiedClick(event)) return;
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
      // A submit button of a form the app sends: the submission is held, below.
      if (element && !submitButton(element)) hold(event, element, () => element.click());
    },
    true,
  );
  window.addEventListener(
    "submit",
    (event) => {
      if (ready() || native || !(event.target instanceof HTMLFormElement)) return;
      const form = event.target;
      const submitter = event.submitter;
      if (sentByBrowser(form, submitter)) {
        // Sent as without JavaScript, with where the visit began, as the app would send it.
        const field = form.elements.namedItem(LANDING_FIELD);
        if (field instanceof HTMLInputElement)
          try {
            field.value = sessionStorage.getItem(LANDING_NOTE_KEY) ?? "";
          } catch {
            // Storage off: the server goes by the page the form was sent from.
          }
        return;
      }
      // Given back as the press it was, a click on the button that sent it (the app heard nothing
      // of that click), or, sent from a field of a form without a button, a submission.
      hold(event, submitter ?? form.querySelector("[type=submit]"), () =>
        submitter ? submitter.click() : form.requestSubmit(),
      );
    },
    true,
  );
  window.addEventListener(HYDRATED_EVENT, () => {
    takeBackMarks();
    for (const replay of held.splice(0)) replay();
  });
}
