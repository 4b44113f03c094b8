import { cn } from "#src/lib/cn.ts";

/** The logo mark: a tickmark over the double rule of a total that ties out. */
export function BrandMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" focusable="false" className={cn("size-8", className)}>
      <rect width="32" height="32" rx="7" fill="#1f7a5a" />
      <path
        d="M9 14.5l4.2 4.2L23 9"
        fill="none"
        stroke="#fff"
        strokeWidth="3"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <path d="M8 23.5h16M8 27h16" stroke="#fff" strokeWidth="1.8" strokeLinecap="round" />
    </svg>
  );
}
