export const LOADER_TARGET: string[];
export function compileHydrationLoader(): string;
