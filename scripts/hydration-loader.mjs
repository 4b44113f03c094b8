// Compiles the page loader (src/lib/hydration-loader.ts) into the script the server inlines at the
// top of every page (decision 018). The build calls it once and bakes the text into the server
// bundle; from source (unit tests, the loader's browser tests) server/pages/hydration-loader.ts calls it.
import path from "node:path";
import { buildSync } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");

/**
 * The browsers the site supports: Vite's default build target for the app's own bundle
 * ("baseline widely available" as of Vite 7), so the loader runs wherever the app does.
 */
const LOADER_TARGET = ["chrome107", "edge107", "firefox104", "safari16"];

/**
 * @param {{ toggles: boolean }} options whether checkboxes and radios toggle before React is ready
 * (for pages that have them) or are held like any press
 * @returns {string} the loader as one minified statement, without a trailing newline
 */
export function compileHydrationLoader({ toggles }) {
  const result = buildSync({
    stdin: {
      contents:
        'import { installHydrationLoader } from "#src/lib/hydration-loader.ts";\ninstallHydrationLoader();',
      resolveDir: root,
      sourcefile: "hydration-loader-entry.ts",
      loader: "ts",
    },
    bundle: true,
    format: "iife",
    platform: "browser",
    target: LOADER_TARGET,
    define: { __LOADER_TOGGLES__: String(toggles) },
    minify: true,
    legalComments: "none",
    charset: "utf8",
    write: false,
    logLevel: "silent",
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error("esbuild wrote no hydration loader");
  return output.text.trimEnd();
}
