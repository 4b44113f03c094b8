/** A text field's value from FormData; files and missing fields read as empty. */
export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

/**
 * Control characters a person does not type (tab, line feed and carriage return are allowed);
 * PostgreSQL cannot store NUL at all. Free text with one is refused with a field error.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point here
export const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
