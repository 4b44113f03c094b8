/**
 * The page loader as the server inlines it: src/lib/hydration-loader.ts compiled by esbuild
 * (decision 018). The production build compiles it once and bakes this module's export into the
 * server bundle as a string (scripts/build.mjs), so the running server neither compiles nor reads a
 * file. Run from source (unit tests, the loader's browser tests, `npm run dev`, which imports it but
 * sends pages unfinished), it is compiled here with the same options.
 */
import { compileHydrationLoader } from "../scripts/hydration-loader.mjs";

export const HYDRATION_LOADER: string = compileHydrationLoader();
