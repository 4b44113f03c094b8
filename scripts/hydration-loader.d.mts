export function compileHydrationLoader(options: { toggles: boolean }): string;
