import { useId, useState, type ComponentProps, type ReactNode } from "react";
import { cn } from "#src/lib/cn.ts";

const inputClass =
  "block min-h-11 w-full rounded-md border border-rule bg-white px-3.5 text-base text-ink shadow-xs placeholder:text-ink-soft/70 focus:border-ledger focus:outline-2 focus:outline-offset-0 focus:outline-ledger aria-[invalid=true]:border-danger disabled:bg-paper";

type FieldProps = {
  label: string;
  hint?: string;
  error?: string;
  className?: string;
  children: (props: {
    id: string;
    "aria-describedby"?: string;
    "aria-invalid"?: true;
    className: string;
  }) => ReactNode;
};

/** A label, its control, an optional hint and an error, wired together for assistive technology. */
export function Field({ label, hint, error, className, children }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cn("space-y-1.5", className)}>
      <label htmlFor={id} className="block text-sm font-semibold text-ink">
        {label}
      </label>
      {children({
        id,
        "aria-describedby": describedBy,
        ...(error ? { "aria-invalid": true as const } : {}),
        className: inputClass,
      })}
      {hint ? (
        <p id={hintId} className="text-sm text-ink-soft">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-sm font-medium text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A password input with a show/hide toggle. Paste always works; nothing blocks the manager. */
export function PasswordInput({ className, ...props }: Omit<ComponentProps<"input">, "type">) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="relative">
      <input {...props} type={visible ? "text" : "password"} className={cn(className, "pr-12")} />
      <button
        type="button"
        onClick={() => setVisible((v) => !v)}
        aria-label={visible ? "Hide password" : "Show password"}
        aria-pressed={visible}
        aria-controls={props.id}
        className="absolute inset-y-0 right-0 flex w-11 items-center justify-center rounded-r-md text-ink-soft hover:text-ink"
      >
        <svg
          viewBox="0 0 24 24"
          aria-hidden="true"
          className="size-5"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
        >
          <path
            d="M2.5 12s3.5-6.5 9.5-6.5S21.5 12 21.5 12 18 18.5 12 18.5 2.5 12 2.5 12z"
            strokeLinejoin="round"
          />
          <circle cx="12" cy="12" r="3" />
          {/* Drawn from the button's pressed state, which the page's loader can flip before the
              app runs (decision 040). */}
          <path d="M4 4l16 16" strokeLinecap="round" className="[[aria-pressed=false]_&]:hidden" />
        </svg>
      </button>
    </div>
  );
}
