/**
 * Which build of React this process loaded. React and React Router pick theirs from NODE_ENV the
 * first time they are imported; `npm start` must always get the production one (decision 009), and
 * the health check says which it got, so a test (and an operator) can see it.
 */
import { createRequire } from "node:module";

export type ReactBuild = "production" | "development" | "not loaded";

export function loadedReactBuild(): ReactBuild {
  const cache = createRequire(import.meta.url).cache;
  // Only modules that ran: Node's ESM loader also lists the branch it merely scanned for exports.
  const react = Object.entries(cache)
    .filter(([file, module]) => module?.loaded && /[\\/]react[\\/]cjs[\\/]react\./.test(file))
    .map(([file]) => file);
  if (react.some((file) => file.includes(".development."))) return "development";
  if (react.some((file) => file.includes(".production."))) return "production";
  return "not loaded";
}
