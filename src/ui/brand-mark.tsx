import { cn } from "#src/lib/cn.ts";

/** The logo mark (same drawing as public/favicon.svg): a tickmark over a total's double rule. */
export function BrandMark({ className }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 64 64"
      aria-hidden="true"
      focusable="false"
      className={cn(className ?? "size-8")}
    >
      <rect width="64" height="64" rx="14" fill="#1f7a5a" />
      <path
        d="M18 24l9 9 19-19"
        fill="none"
        stroke="#fff"
        strokeWidth="6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <path d="M16 42h32M16 50h32" stroke="#fff" strokeWidth="4" strokeLinecap="round" />
    </svg>
  );
}
