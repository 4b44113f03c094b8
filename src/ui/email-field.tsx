import type { Ref } from "react";
import { Field } from "#src/ui/field.tsx";

/**
 * The email field of every form: the right keyboard, autofill, no spellcheck, at most 254
 * characters (the longest address SMTP carries). `fixed`: an address shown and sent but not
 * editable (the one an invitation was sent to).
 */
export function EmailField({
  label = "Email",
  hint,
  error,
  defaultValue,
  inputRef,
  fixed,
}: {
  label?: string;
  hint?: string;
  error?: string | undefined;
  defaultValue?: string | undefined;
  inputRef?: Ref<HTMLInputElement>;
  fixed?: string;
}) {
  return (
    <Field label={label} error={error} hint={hint}>
      {(props) => (
        <input
          {...props}
          ref={inputRef}
          name="email"
          type="email"
          required
          maxLength={254}
          autoComplete="email"
          inputMode="email"
          spellCheck={false}
          {...(fixed === undefined
            ? { defaultValue }
            : { value: fixed, readOnly: true, className: `${props.className} bg-paper` })}
        />
      )}
    </Field>
  );
}
