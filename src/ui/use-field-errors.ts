import { useState } from "react";

/** Our words for each broken constraint of a named field (`required`, `type="email"`). */
export type FieldMessages = Readonly<
  Record<string, { valueMissing: string; typeMismatch?: string }>
>;

/**
 * Checks a `noValidate` form with the browser's own constraints (the same attributes that work
 * without JavaScript), so each error shows under its field, linked by aria-describedby, instead
 * of in a bubble that vanishes. On errors, focuses the first invalid field and returns false.
 */
export function useFieldErrors(messages: FieldMessages) {
  const [errors, setErrors] = useState<Record<string, string>>({});

  function check(form: HTMLFormElement): boolean {
    const found: Record<string, string> = {};
    let first: HTMLElement | null = null;
    for (const control of form.elements) {
      if (!(control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement))
        continue;
      const words = messages[control.name];
      if (!words || control.validity.valid) continue;
      found[control.name] = control.validity.valueMissing
        ? words.valueMissing
        : (words.typeMismatch ?? words.valueMissing);
      first ??= control;
    }
    setErrors(found);
    first?.focus();
    return first === null;
  }

  return { errors, check };
}
