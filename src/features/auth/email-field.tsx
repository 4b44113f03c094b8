import type { Ref } from "react";
import { Field } from "#src/ui/field.tsx";

/**
 * The email field of every account form: the right keyboard, autofill and no spellcheck. `fixed`:
 * the address an invitation was sent to, shown and sent but not editable.
 */
export function EmailField({
  inputRef,
  error,
  fixed,
}: {
  inputRef?: Ref<HTMLInputElement>;
  error?: string;
  fixed?: string;
}) {
  return (
    <Field
      label="Email"
      error={error}
      hint={fixed === undefined ? undefined : "Your invitation is for this address."}
    >
      {(props) => (
        <input
          {...props}
          ref={inputRef}
          name="email"
          type="email"
          required
          autoComplete="email"
          inputMode="email"
          spellCheck={false}
          {...(fixed === undefined
            ? {}
            : { value: fixed, readOnly: true, className: `${props.className} bg-paper` })}
        />
      )}
    </Field>
  );
}
