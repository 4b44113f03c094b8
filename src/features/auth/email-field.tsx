import type { Ref } from "react";
import { Field } from "#src/ui/field.tsx";

/** The email field of every account form: the right keyboard, autofill and no spellcheck. */
export function EmailField({ inputRef }: { inputRef?: Ref<HTMLInputElement> }) {
  return (
    <Field label="Email">
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
