/**
 * The stylesheet cut down to what one page needs before React runs (decisions 006 and 009): the
 * server inlines the result, so its size is paid on every first visit and its rules are parsed
 * before the first paint. Three cuts, each keeping anything it cannot prove unused:
 * - utilities: a rule none of whose selectors can match the page's markup goes (a selector needs
 *   every class it names), also inside the @media and @supports blocks that group variants;
 * - base: a rule whose every selector needs an element the page does not have goes (the date
 *   picker's parts on a page without an input, `sub` and `sup` on a page without them);
 * - custom properties: a theme variable, a `--tw-*` default or an `@property` that nothing kept
 *   sets or reads goes.
 * The full stylesheet is linked once React runs, for whatever it renders later.
 */

const CLASS_ATTRIBUTE = /\bclass="([^"]*)"/g;
const STYLE_ATTRIBUTE = /\bstyle="([^"]*)"/g;
const ELEMENT = /<([a-zA-Z][a-zA-Z0-9-]*)/g;
const HTML_ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&quot;": '"',
  "&#x27;": "'",
  "&#39;": "'",
  "&lt;": "<",
  "&gt;": ">",
};
const CLASS_TOKEN = /\.((?:\\.|[A-Za-z0-9_-])+)/g;
/** At-rules that only group rules under a condition (Tailwind's `sm:`, `hover:` and the like). */
const CONDITIONAL_GROUP = /^@(media|supports|container)\b/;
const CUSTOM_PROPERTY_READ = /var\(\s*(--[A-Za-z0-9_-]+)/g;
const CUSTOM_PROPERTY_SET = /(?:^|[{;])\s*(--[A-Za-z0-9_-]+)\s*:/g;
/** Pseudo-elements that exist only on form controls. */
const FORM_CONTROL_PART = /::(?:-webkit-[a-z-]+|placeholder|file-selector-button)/;
const FORM_CONTROLS = ["input", "textarea", "select"];

type Rule = { prelude: string; text: string };

/** Each top-level rule or block of a CSS text, with its prelude (the part before "{"). */
function topLevelRules(css: string): Rule[] {
  const rules: Rule[] = [];
  let depth = 0;
  let start = 0;
  let prelude = "";
  for (let i = 0; i < css.length; i++) {
    const ch = css[i];
    if (ch === "{") {
      if (depth === 0) prelude = css.slice(start, i);
      depth++;
    } else if (ch === "}") {
      depth--;
      if (depth === 0) {
        rules.push({ prelude: prelude.trim(), text: css.slice(start, i + 1) });
        start = i + 1;
      }
    } else if (ch === ";" && depth === 0) {
      rules.push({ prelude: css.slice(start, i).trim(), text: css.slice(start, i + 1) });
      start = i + 1;
    }
  }
  return rules;
}

/** Splits on a separator that is outside brackets and quotes. */
function splitOutside(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = "";
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === quote) quote = "";
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === "(" || ch === "[") depth++;
    else if (ch === ")" || ch === "]") depth--;
    else if (ch === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

const inner = (rule: Rule): string => rule.text.slice(rule.text.indexOf("{") + 1, -1);

/** Keeps the rules `keep` accepts, looking inside conditional groups; a group left empty goes. */
function filterRules(block: string, keep: (rule: Rule) => boolean): string {
  return topLevelRules(block)
    .map((rule) => {
      if (CONDITIONAL_GROUP.test(rule.prelude)) {
        const kept = filterRules(inner(rule), keep);
        return kept === "" ? "" : `${rule.prelude}{${kept}}`;
      }
      return keep(rule) ? rule.text : "";
    })
    .join("");
}

/** The element names a selector cannot match without (outside `:not()`), or null if none. */
function elementsNeeded(selector: string): string[] {
  const bare = selector.replace(/:not\([^()]*\)/g, "").replace(/\[[^\]]*\]/g, "");
  return [...bare.matchAll(/(?:^|[\s>+~(])([a-z][a-z0-9]*)/g)].map(([, name = ""]) => name);
}

function selectorFits(selector: string, elements: ReadonlySet<string>): boolean {
  if (FORM_CONTROL_PART.test(selector) && !FORM_CONTROLS.some((name) => elements.has(name)))
    return false;
  return elementsNeeded(selector.trim()).every((name) => elements.has(name));
}

/** Declarations of a block, without the ones naming a custom property that `keep` refuses. */
function filterCustomProperties(declarations: string, keep: (name: string) => boolean): string {
  return splitOutside(declarations, ";")
    .filter((declaration) => {
      const name = /^\s*(--[A-Za-z0-9_-]+)\s*:/.exec(declaration)?.[1];
      return declaration.trim() !== "" && (name === undefined || keep(name));
    })
    .join(";");
}

/** Rewrites every innermost `selector{declarations}` of a block. */
function mapDeclarationBlocks(block: string, map: (declarations: string) => string): string {
  return block.replace(/\{([^{}]*)\}/g, (_, declarations: string) => `{${map(declarations)}}`);
}

export function cssForPage(css: string, html: string): string {
  const classes = new Set<string>();
  for (const [, attribute = ""] of html.matchAll(CLASS_ATTRIBUTE)) {
    // React escapes the attribute: `[&_svg]:size-4` arrives as `[&amp;_svg]:size-4`.
    const decoded = attribute.replace(
      /&(amp|quot|#x27|#39|lt|gt);/g,
      (entity) => HTML_ENTITIES[entity] ?? entity,
    );
    for (const name of decoded.split(/\s+/)) if (name) classes.add(name);
  }
  const elements = new Set([...html.matchAll(ELEMENT)].map(([, name = ""]) => name.toLowerCase()));

  const classesIn = (text: string) =>
    [...text.matchAll(CLASS_TOKEN)].map(([, token = ""]) => token.replace(/\\(.)/g, "$1"));
  // A selector needs every class it names outside `:not()`: `.group:hover .group-hover\:x`
  // matches nothing on a page that has `group` but not `group-hover:x`. Where the selector is too
  // involved to read that way (a list inside `:is()`, `:where()` or `:has()`, or a nested
  // `:not()`), one class of the page is enough, as for the whole rule before.
  const selectorUsesPageClasses = (selector: string): boolean => {
    const outsideNot = selector.replace(/:not\([^()]*\)/g, "");
    const involved = /:not\(/.test(outsideNot) || /:(?:is|where|has)\([^()]*,/.test(outsideNot);
    const names = classesIn(involved ? selector : outsideNot);
    if (names.length === 0) return true;
    return involved ? names.some((name) => classes.has(name)) : names.every((n) => classes.has(n));
  };
  const usesPageClass = (rule: Rule): boolean =>
    classesIn(rule.prelude).length === 0 ||
    splitOutside(rule.prelude, ",").some(selectorUsesPageClasses);
  const fitsPageElements = (rule: Rule): boolean =>
    rule.prelude.startsWith("@") ||
    splitOutside(rule.prelude, ",").some((selector) => selectorFits(selector, elements));

  const rules = topLevelRules(css).map((rule) => {
    if (rule.prelude === "@layer utilities")
      return { ...rule, text: `@layer utilities{${filterRules(inner(rule), usesPageClass)}}` };
    if (rule.prelude === "@layer base")
      return { ...rule, text: `@layer base{${filterRules(inner(rule), fitsPageElements)}}` };
    return rule;
  });

  // Custom properties: what the kept rules (and the markup's style attributes) set or read.
  const isDefinition = (rule: Rule) =>
    rule.prelude === "@layer theme" ||
    rule.prelude === "@layer properties" ||
    rule.prelude.startsWith("@property ");
  const consumers = [
    ...rules.filter((rule) => !isDefinition(rule)).map((rule) => rule.text),
    ...[...html.matchAll(STYLE_ATTRIBUTE)].map(([, style = ""]) => `{${style}}`),
  ].join("");
  const read = new Set([...consumers.matchAll(CUSTOM_PROPERTY_READ)].map(([, name = ""]) => name));
  const setOrRead = new Set([
    ...read,
    ...[...consumers.matchAll(CUSTOM_PROPERTY_SET)].map(([, name = ""]) => name),
  ]);

  // Theme variables read other theme variables (`--default-font-family: var(--font-sans)`).
  const theme = rules.find((rule) => rule.prelude === "@layer theme");
  if (theme !== undefined) {
    for (let grew = true; grew;) {
      grew = false;
      for (const declaration of splitOutside(inner(theme), ";")) {
        const name = /(--[A-Za-z0-9_-]+)\s*:/.exec(declaration)?.[1];
        if (name === undefined || !read.has(name)) continue;
        for (const [, used = ""] of declaration.matchAll(CUSTOM_PROPERTY_READ)) {
          if (!read.has(used)) {
            read.add(used);
            grew = true;
          }
        }
      }
    }
  }

  return rules
    .map((rule) => {
      if (rule.prelude === "@layer theme")
        return `@layer theme{${mapDeclarationBlocks(inner(rule), (d) => filterCustomProperties(d, (name) => read.has(name)))}}`;
      if (rule.prelude === "@layer properties")
        return `@layer properties{${mapDeclarationBlocks(inner(rule), (d) => filterCustomProperties(d, (name) => setOrRead.has(name)))}}`;
      if (rule.prelude.startsWith("@property ")) {
        const name = rule.prelude.slice("@property ".length).trim();
        return setOrRead.has(name) ? rule.text : "";
      }
      return rule.text;
    })
    .join("");
}
