import { readdirSync } from "node:fs";
import path from "node:path";
import js from "@eslint/js";
import checkFile from "eslint-plugin-check-file";
import importX from "eslint-plugin-import-x";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// Read at load time, so a new feature folder gets its wall without an edit here (decision 017).
const FEATURES = readdirSync(path.join(import.meta.dirname, "src/features"), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

// The app shell: what React Router loads first. Only routes sit level with it.
const SHELL = ["./src/root.tsx", "./src/entry.client.tsx", "./src/entry.server.tsx"];

// The server's folders from the top down (decision 017; each folder's README says what belongs
// there). A folder may import the folders below it and `server/env.ts`, never one above it nor
// the start-up files: no domain folder reaches a plugin, and `http/` at the bottom reaches no
// service. A new folder has to be placed in this list, or the layout check below refuses its files.
const SERVER_LAYERS = [
  "plugins",
  "pages",
  "account",
  "privacy",
  "identity",
  "operations",
  "broadcasts",
  "subprocessors",
  "waitlist",
  "webhooks",
  "outbox",
  "mail",
  "audit",
  "http",
  "background",
];

// Start-up: the only files at the top of server/, above every folder. env.ts is read by all.
const SERVER_START_UP = ["index.ts", "dev.ts", "app.ts", "services.ts", "production.ts"];
const SERVER_TOP = [...SERVER_START_UP, "env.ts"];

// A file of server/ that is neither start-up nor in a listed folder is refused, so a new module
// cannot land loose at the top or in a folder the layers do not know.
const serverLayout = {
  meta: { type: "problem", schema: [] },
  create(context) {
    const relative = path.relative(path.join(import.meta.dirname, "server"), context.filename);
    const [first, ...rest] = relative.split(path.sep);
    const placed =
      rest.length === 0
        ? SERVER_TOP.includes(first.replace(/\.test\.ts$/, ".ts"))
        : SERVER_LAYERS.includes(first);
    return {
      Program(node) {
        if (placed) return;
        context.report({
          node,
          message:
            rest.length === 0
              ? `server/${first} is loose: only start-up files (${SERVER_START_UP.join(", ")}) and env.ts sit at the top of server/; move it to the folder of its job`
              : `server/${first}/ is not a known folder: add it to SERVER_LAYERS in eslint.config.js, in its place from the top down`,
        });
      },
    };
  },
};

// Who may import whom: docs/decisions/017-lint-that-keeps-the-shape.md.
const ZONES = [
  // Browser code never reaches into the server or the database.
  {
    target: "./src",
    from: ["./server", "./db"],
    message: "src/ must not import Node-only server code",
  },
  // The database layer knows nothing of the site or the server.
  {
    target: "./db",
    from: ["./src", "./server"],
    message: "db/ is the bottom layer: it imports only db/",
  },
  // Content is data: it imports nothing of ours but other content.
  {
    target: "./src/content",
    from: ["./src/lib", "./src/ui", "./src/features", "./src/routes", ...SHELL],
    message: "src/content is data and imports only src/content",
  },
  // Helpers may read content, never what is built on them.
  {
    target: "./src/lib",
    from: ["./src/ui", "./src/features", "./src/routes", ...SHELL],
    message: "src/lib may import only src/lib and src/content",
  },
  // Building blocks know nothing of the site: no features, routes or content.
  {
    target: "./src/ui",
    from: ["./src/content", "./src/features", "./src/routes", ...SHELL],
    message: "src/ui may import only src/ui and src/lib",
  },
  // Features never import routes or the shell; routes compose features.
  {
    target: "./src/features",
    from: ["./src/routes", ...SHELL],
    message: "features are composed by routes, never the other way",
  },
  // Features never import each other: one wall per feature folder.
  ...FEATURES.map((name) => ({
    target: `./src/features/${name}`,
    from: "./src/features",
    except: [`./${name}`],
    message: `src/features/${name} must not import another feature; move what they share to src/lib, src/ui or src/content`,
  })),
  // The server serves pages through the build, never by importing them.
  {
    target: "./server",
    from: ["./src/routes", "./src/ui", ...SHELL],
    message: "server/ must not import pages, the shell or UI components",
  },
  // ...and of the features it reads only the waitlist contract it shares with the page
  // (decision 014): the schema that validates, the result type, the reply, the
  // lifecycle that decides every change of an entry's state (decision 024), the reading of the
  // qualifying answers, stored and filtered by (decision 043), and the entry filter that the list,
  // the audiences and the broadcasts share (decision 044), and the referral code that the link, the
  // form and the store agree on (decision 045).
  {
    target: "./server",
    from: "./src/features",
    except: [
      "./waitlist/schema.ts",
      "./waitlist/types.ts",
      "./waitlist/reply.ts",
      "./waitlist/lifecycle.ts",
      "./waitlist/answers.ts",
      "./waitlist/entry-filter.ts",
      "./waitlist/referral.ts",
    ],
    message:
      "server/ may import only the shared waitlist contract from src/features (decision 017)",
  },
];

// ...and inside server/, who may import whom from the top down. Unit tests beside a module are
// left out: a test may bring in what sits above its module (tests/ may import anything).
const SERVER_ZONES = [
  // Start-up sits over every folder: none imports it.
  {
    target: "./server/*/**",
    from: SERVER_START_UP.map((file) => `./server/${file}`),
    message:
      "only start-up imports start-up: pass what a folder needs in, from services.ts or app.ts",
  },
  // The configuration is read by all and reads nothing of the server.
  {
    target: "./server/env.ts",
    from: ["./server/*/**", `./server/{${SERVER_START_UP.join(",")}}`],
    message: "server/env.ts reads the environment and imports no other server file",
  },
  // Each folder imports only the folders below it (SERVER_LAYERS).
  ...SERVER_LAYERS.slice(1).map((name, i) => ({
    target: `./server/${name}`,
    from: SERVER_LAYERS.slice(0, i + 1).map((above) => `./server/${above}`),
    message: `server/${name} may import only the folders below it: ${SERVER_LAYERS.slice(i + 2).join(", ") || "none"} (and server/env.ts); see SERVER_LAYERS`,
  })),
];

// kebab-case, then optional lowercase dotted parts: `waitlist-form.tsx`, `schema.test.ts`,
// `entry.client.tsx`, `auth-emulator.d.mts`.
const KEBAB_CASE_DOTTED = "+([a-z])*([a-z0-9])*(-+([a-z0-9]))*(.+([a-z0-9]))";
const OUR_CODE = "{src,server,db,tests,scripts}";

export default tseslint.config(
  {
    ignores: [
      "build/",
      ".react-router/",
      "node_modules/",
      "test-results/",
      "playwright-report/",
      "data/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ["*.js", "scripts/*.mjs", "scripts/media/*.js"] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { "import-x": importX, "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    settings: {
      // Without these, import-x skips TypeScript files when it follows imports, and no-cycle
      // silently sees no cycles. Resolution itself is Node's, through package.json `imports`.
      "import-x/extensions": [".ts", ".tsx", ".mts", ".js", ".mjs"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx", ".mts"] },
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      // A scrollable region must be focusable for keyboard users (axe: scrollable-region-focusable).
      // A group: the same, inside a section that is already the landmark (issue 38).
      "jsx-a11y/no-noninteractive-tabindex": [
        "error",
        { roles: ["tabpanel", "region", "group"], tags: [] },
      ],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/only-throw-error": "off",
      // Who may import whom: docs/decisions/017-lint-that-keeps-the-shape.md.
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: ZONES,
        },
      ],
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
    },
  },
  {
    files: [`${OUR_CODE}/**/*`],
    plugins: { "check-file": checkFile },
    rules: {
      "check-file/filename-naming-convention": [
        "error",
        { [`${OUR_CODE}/**/*`]: KEBAB_CASE_DOTTED },
        {
          ignoreMiddleExtensions: false,
          errorMessage:
            "File name {{ target }} is not kebab-case (lowercase words joined by -, optional dotted parts such as .test or .client)",
        },
      ],
      "check-file/folder-naming-convention": [
        "error",
        { [`${OUR_CODE}/**/`]: "KEBAB_CASE" },
        { errorMessage: "Folder name {{ target }} is not kebab-case" },
      ],
    },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    files: ["server/**/*.{ts,tsx}"],
    plugins: { local: { rules: { "server-layout": serverLayout } } },
    rules: { "local/server-layout": "error" },
  },
  {
    files: ["server/**/*.{ts,tsx}"],
    ignores: ["server/**/*.test.ts"],
    rules: { "import-x/no-restricted-paths": ["error", { zones: [...ZONES, ...SERVER_ZONES] }] },
  },
  {
    // A Fastify plugin is an async function by contract, whether or not it awaits anything.
    files: ["server/plugins/**"],
    rules: { "@typescript-eslint/require-await": "off" },
  },
  {
    // Playwright fixtures call `use`, which is not React's hook. A fixture is named by destructuring
    // its test's first argument, even when none is needed (`{}`) or only its effect is (`_signedIn`).
    files: ["tests/**"],
    rules: {
      "react-hooks/rules-of-hooks": "off",
      "no-empty-pattern": ["error", { allowObjectPatternsAsParameters: true }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
    },
  },
);
