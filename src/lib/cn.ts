import { clsx, type ClassValue } from "clsx";

/**
 * Joins class names. Components never pass a utility that conflicts with one the component sets
 * (no tailwind-merge: it would add 8 KB of JavaScript to every page to resolve such conflicts).
 */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
