import js from "@eslint/js";
import importX from "eslint-plugin-import-x";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

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
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      // A scrollable region must be focusable for keyboard users (axe: scrollable-region-focusable).
      "jsx-a11y/no-noninteractive-tabindex": ["error", { roles: ["tabpanel", "region"], tags: [] }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/only-throw-error": "off",
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            // Browser code never reaches into the server or the database.
            {
              target: "./src",
              from: ["./server", "./db"],
              message: "src/ must not import Node-only server code",
            },
            // Shared building blocks know nothing of features or routes.
            {
              target: ["./src/ui", "./src/content", "./src/lib"],
              from: ["./src/features", "./src/routes"],
            },
            // Features never import routes.
            { target: "./src/features", from: "./src/routes" },
          ],
        },
      ],
    },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
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
