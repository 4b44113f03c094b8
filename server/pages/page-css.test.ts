import { describe, expect, test } from "vitest";
import { cssForPage } from "#server/pages/page-css.ts";

describe("cssForPage", () => {
  test("keeps the utilities the page's markup uses", () => {
    // Variants come nested in their utility (sm:px-8) or grouped in one @media block per condition
    // (sm:flex, sm:grid); a group left empty goes. The & of a variant arrives escaped, as React
    // writes the attribute.
    const css =
      "@layer components;@layer utilities{.flex{display:flex}.hidden{display:none}" +
      ".sm\\:px-8{@media (width>=40rem){padding-inline:2rem}}.hover\\:underline{&:hover{text-decoration:underline}}.\\[content-visibility\\:auto\\]{content-visibility:auto}" +
      ".\\[\\&_svg\\]\\:size-4 svg{width:1rem}" +
      "@media (width>=40rem){.sm\\:flex{display:flex}.sm\\:grid{display:grid}}@media (hover:hover){.hover\\:grid:hover{display:grid}}}";
    const page =
      '<div class="flex sm:px-8 sm:flex [content-visibility:auto] [&amp;_svg]:size-4">x</div>';
    expect(cssForPage(css, page)).toBe(
      "@layer components;@layer utilities{.flex{display:flex}" +
        ".sm\\:px-8{@media (width>=40rem){padding-inline:2rem}}.\\[content-visibility\\:auto\\]{content-visibility:auto}" +
        ".\\[\\&_svg\\]\\:size-4 svg{width:1rem}@media (width>=40rem){.sm\\:flex{display:flex}}}",
    );
  });

  test("drops a utility whose selector needs a class the page lacks, even beside one it has", () => {
    const css =
      "@layer utilities{@media (hover:hover){:is(:where(.group):hover .group-hover\\:scale-105){scale:1.05}" +
      ":is(:where(.group):hover .group-hover\\:opacity-100){opacity:1}}" +
      ":where(.space-y-4>:not(:last-child)){margin-block-end:1rem}" +
      ".a:not(.b){color:red}.c:is(.d,.e){color:blue}}";
    const page = '<h2 class="group a c">x<a class="group-hover:opacity-100 space-y-4">#</a></h2>';
    expect(cssForPage(css, page)).toBe(
      "@layer utilities{@media (hover:hover){:is(:where(.group):hover .group-hover\\:opacity-100){opacity:1}}" +
        ":where(.space-y-4>:not(:last-child)){margin-block-end:1rem}" +
        // A class only inside :not() is not needed; a list inside :is() keeps the old reading.
        ".a:not(.b){color:red}.c:is(.d,.e){color:blue}}",
    );
  });

  test("keeps a base rule when one of its selectors can match an element of the page", () => {
    const css =
      "@layer base{*,:after{margin:0}html,:host{line-height:1.5}sub,sup{font-size:75%}sub{bottom:0}" +
      ":-moz-focusring:where(:not(iframe)){outline:auto}img,svg,video{display:block}" +
      ":where(select:is([multiple],[size])) optgroup{font-weight:bolder}" +
      "::placeholder{opacity:1}@supports (color:red){::placeholder{color:red}}::-webkit-datetime-edit{display:inline-flex}" +
      "[hidden]:where(:not([hidden=until-found])){display:none!important}}";
    expect(cssForPage(css, "<html><body><p>x<sup>1</sup></p><svg></svg></body></html>")).toBe(
      "@layer base{*,:after{margin:0}html,:host{line-height:1.5}sub,sup{font-size:75%}" +
        ":-moz-focusring:where(:not(iframe)){outline:auto}img,svg,video{display:block}" +
        "[hidden]:where(:not([hidden=until-found])){display:none!important}}",
    );
    // A form control brings its parts back.
    expect(cssForPage(css, "<html><body><input></body></html>")).toContain(
      "::placeholder{opacity:1}@supports (color:red){::placeholder{color:red}}::-webkit-datetime-edit{display:inline-flex}",
    );
  });

  test("keeps only the custom properties that kept rules or the markup set or read", () => {
    const css =
      "@layer properties{@supports (x:y){*,:before{--tw-shadow:0 0 #0000;--tw-ring-color:initial;--tw-scale-x:1}}}" +
      '@layer theme{:root,:host{--font-sans:ui-sans-serif, "Segoe UI";--default-font-family:var(--font-sans);--color-ink:#000;--color-unused:#fff;--text-sm:.875rem;--text-sm--line-height:calc(1.25 / .875)}}' +
      "@layer base{html{font-family:var(--default-font-family)}}" +
      "@layer utilities{.text-ink{color:var(--color-ink)}.shadow{--tw-shadow:0 1px #000;box-shadow:var(--tw-shadow)}.scale-2{--tw-scale-x:2}}" +
      '@property --tw-shadow{syntax:"*";inherits:false}@property --tw-scale-x{syntax:"*";inherits:false}';
    const page =
      '<html><body class="text-ink shadow" style="--progress:var(--text-sm)">x</body></html>';
    expect(cssForPage(css, page)).toBe(
      "@layer properties{@supports (x:y){*,:before{--tw-shadow:0 0 #0000}}}" +
        '@layer theme{:root,:host{--font-sans:ui-sans-serif, "Segoe UI";--default-font-family:var(--font-sans);--color-ink:#000;--text-sm:.875rem}}' +
        "@layer base{html{font-family:var(--default-font-family)}}" +
        "@layer utilities{.text-ink{color:var(--color-ink)}.shadow{--tw-shadow:0 1px #000;box-shadow:var(--tw-shadow)}}" +
        '@property --tw-shadow{syntax:"*";inherits:false}',
    );
  });
});
