// Knip: unused files, exports and dependencies fail `npm run lint` (decision 017).
// Most entry points come from its plugins: React Router (root, entries, every module named in
// src/routes.ts), Vite, Vitest, Playwright, ESLint, and the package.json scripts.
import type { KnipConfig } from "knip";

const config: KnipConfig = {
  entry: [
    // Bundled by scripts/build.mjs with esbuild's JavaScript API, which knip does not read.
    "server/index.ts",
    "server/production.ts",
    // The mail thread (decision 051): bundled on its own, started by server/outbox/email.ts by path.
    "server/outbox/email-thread.ts",
    "db/pglite-thread.ts",
    // Run by hand (`npx tsx scripts/screenshots.ts`) as well as from package.json.
    "scripts/*.{mjs,ts}",
    // Started as a child process by the mail bench (scripts/bench/mail.ts).
    "scripts/bench/mail-server.ts",
    // Run by hand for the README's backup figures (`npx tsx scripts/bench/backup.ts`).
    "scripts/bench/backup.ts",
    // Started as a child process, in a PID namespace of its own too, by db/data-dir-lock.test.ts.
    "tests/support/data-dir-lock-holder.ts",
    // Loaded by scripts/media/demo.html in the browser that records the demo clip.
    "scripts/media/demo.{js,css}",
    // Compiled by scripts/hydration-loader.mjs (esbuild) and inlined into every page by the server.
    "src/lib/hydration-loader.ts",
  ],
  // Only react-router.config.ts says where the app is; read through vite.config.ts the plugin
  // assumes the default app/ folder, finds no entry.server there, and asks for isbot.
  "react-router": { config: ["react-router.config.ts"] },
  ignoreBinaries: [
    // Debian packages: scripts/ensure-test-tools.mjs installs LibreOffice and poppler for the DPA test.
    "soffice",
    "pdfinfo",
    "pdftotext",
    // Debian's ffmpeg, needed only to remake the demo clip's posters (scripts/make-poster-images.ts).
    "ffmpeg",
    // PostgreSQL's pg_dump (Debian's postgresql-client), used by npm run backup when it is on PATH.
    "pg_dump",
    // util-linux's, for db/data-dir-lock.test.ts's process in a PID namespace of its own (skipped without it).
    "unshare",
  ],
  ignoreDependencies: [
    // Started by path (node_modules/firebase-tools/lib/bin/firebase.js) in scripts/auth-emulator.mjs.
    "firebase-tools",
    // Started by path (node_modules/.bin/lighthouse) in scripts/bench.ts.
    "lighthouse",
  ],
};

export default config;
