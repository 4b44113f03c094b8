import type { Ref } from "react";
import { Field } from "#src/ui/field.tsx";

/** The email field of every account form: the right keyboard, autofill and no spellcheck. */
export function EmailField({
  inputRef,
  error,
}: {
  inputRef?: Ref<HTMLInputElement>;
  error?: string;
}) {
  return (
    <Field label="Email" error={error}>
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
        />
      )}
    </Field>
  );
}
