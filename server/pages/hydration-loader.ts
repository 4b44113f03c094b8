/**
 * The page loader as the server inlines it: src/lib/hydration-loader.ts compiled by esbuild
 * (decision 018). The production build compiles it once and bakes this module's export into the
 * server bundle as a string (scripts/build.mjs), so the running server neither compiles nor reads a
 * file. Run from source (unit tests, the loader's browser tests, `npm run dev`, which imports it but
 * sends pages unfinished), it is compiled here with the same options.
 */
import { compileHydrationLoader } from "../../scripts/hydration-loader.mjs";

/** For pages with checkboxes or radios: those toggle at once, before React is ready. */
export const HYDRATION_LOADER: string = compileHydrationLoader({ toggles: true });
/** For every other page: every press held; 0.1 KB less to send (decision 009). */
export const HYDRATION_LOADER_NO_TOGGLES: string = compileHydrationLoader({ toggles: false });
