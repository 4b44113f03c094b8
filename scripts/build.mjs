// Builds everything `npm start` serves: the React Router client and server bundles, precompressed
// copies of every compressible public file, the page loader, and the bundled Node server.
import { execFileSync } from "node:child_process";
import { cp, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { build } from "esbuild";
import { checkSubprocessorList } from "./check-subprocessors.mjs";
import { compileHydrationLoader } from "./hydration-loader.mjs";

const root = path.resolve(import.meta.dirname, "..");
const COMPRESSIBLE = new Set([
  ".js",
  ".css",
  ".svg",
  ".ico",
  ".vtt",
  ".webmanifest",
  ".json",
  ".txt",
  ".xml",
]);

// Before anything is built: a sub-processor change with less than 30 days' notice is never published.
await checkSubprocessorList();

execFileSync(
  process.execPath,
  [path.join(root, "node_modules/@react-router/dev/bin.cjs"), "build"],
  {
    cwd: root,
    stdio: "inherit",
    // Always a production bundle, even when started from the test runner with NODE_ENV=test.
    env: { ...process.env, NODE_ENV: "production" },
  },
);

async function* walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}

let compressed = 0;
for await (const file of walk(path.join(root, "build/client"))) {
  if (!COMPRESSIBLE.has(path.extname(file))) continue;
  const body = await readFile(file);
  if (body.length < 512) continue;
  await writeFile(
    `${file}.br`,
    brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  );
  await writeFile(`${file}.gz`, gzipSync(body, { level: 9 }));
  compressed++;
}

// The loader every page carries inline (decision 018): compiled here, once, and baked into the
// server bundle in place of server/pages/hydration-loader.ts, which compiles it when run from source.
const hydrationLoaders = {
  HYDRATION_LOADER: compileHydrationLoader({ toggles: true }),
  HYDRATION_LOADER_NO_TOGGLES: compileHydrationLoader({ toggles: false }),
};
const loaderModule = path.join(root, "server/pages/hydration-loader.ts");
/** @type {import("esbuild").Plugin} */
const compiledLoader = {
  name: "compiled-hydration-loader",
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /[\\/]server[\\/]hydration-loader\.ts$/ }, (args) =>
      args.path === loaderModule
        ? {
            contents: Object.entries(hydrationLoaders)
              .map(([name, text]) => `export const ${name} = ${JSON.stringify(text)};`)
              .join("\n"),
            loader: "js",
          }
        : undefined,
    );
  },
};

const serverOptions = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node24",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
  plugins: [compiledLoader],
};
// app.js only sets NODE_ENV=production, then loads main.js (the server): see server/production.ts.
await build({
  ...serverOptions,
  entryPoints: [path.join(root, "server/index.ts")],
  outfile: path.join(root, "build/server/main.js"),
});
await build({
  ...serverOptions,
  entryPoints: [path.join(root, "server/production.ts")],
  outfile: path.join(root, "build/server/app.js"),
});
// The mail thread (decision 051): a module of its own, which the server starts beside itself.
await build({
  ...serverOptions,
  entryPoints: [path.join(root, "server/outbox/email-thread.ts")],
  outfile: path.join(root, "build/server/email-thread.js"),
});
// The embedded database's thread (decision 055), which db/client.ts starts beside the server.
await build({
  ...serverOptions,
  entryPoints: [path.join(root, "db/pglite-thread.ts")],
  outfile: path.join(root, "build/server/pglite-thread.js"),
});

// The bundled server looks for its migrations beside itself.
await cp(path.join(root, "db/migrations"), path.join(root, "build/server/migrations"), {
  recursive: true,
});

await writeFile(path.join(root, "build/.stamp"), new Date().toISOString());
console.log(
  `Build complete: ${compressed} public files precompressed (brotli and gzip); ` +
    `page loader ${Buffer.byteLength(hydrationLoaders.HYDRATION_LOADER_NO_TOGGLES)} bytes ` +
    `(${Buffer.byteLength(hydrationLoaders.HYDRATION_LOADER)} on pages with checkboxes or radios).`,
);
