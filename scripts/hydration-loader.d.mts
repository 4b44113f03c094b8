export function compileHydrationLoader(): string;
