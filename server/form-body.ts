/** HTML form bodies (application/x-www-form-urlencoded) as the server reads and hands them on. */
export type FormFields = Record<string, string | string[]>;

/** application/x-www-form-urlencoded to an object; a repeated key becomes an array. */
export function parseForm(body: string): FormFields {
  // No prototype: a field named toString or __proto__ is just a field.
  const fields = Object.create(null) as FormFields;
  for (const [key, value] of new URLSearchParams(body)) {
    const seen = Object.hasOwn(fields, key) ? fields[key] : undefined;
    fields[key] =
      seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return fields;
}

/** The reverse of parseForm, for handing a posted form on to React Router. */
export function encodeForm(fields: FormFields): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) params.append(key, v);
  }
  return params.toString();
}
