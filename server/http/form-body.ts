/** HTML form bodies (application/x-www-form-urlencoded) as the server reads and hands them on. */
export type FormFields = Record<string, string | string[]>;

/** A form's fields, in order, as an object; a repeated key becomes an array. */
function fieldsOf(pairs: Iterable<[string, string]>): FormFields {
  // No prototype: a field named toString or __proto__ is just a field.
  const fields = Object.create(null) as FormFields;
  for (const [key, value] of pairs) {
    const seen = Object.hasOwn(fields, key) ? fields[key] : undefined;
    fields[key] =
      seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return fields;
}

/** application/x-www-form-urlencoded to an object; a repeated key becomes an array. */
export function parseForm(body: string): FormFields {
  return fieldsOf(new URLSearchParams(body));
}

/** A multipart body that is not a form of text fields: 400, or 415 for a file. */
class FormBodyError extends Error {
  constructor(
    readonly statusCode: 400 | 415,
    message: string,
  ) {
    super(message);
  }
}

/**
 * multipart/form-data (RFC 7578) to the same object: the encoding RFC 8058 asks mail clients to
 * use for a one-click unsubscribe. Text fields only; our forms upload no files.
 */
export async function parseMultipartForm(body: Buffer, contentType: string): Promise<FormFields> {
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), {
      headers: { "content-type": contentType },
    }).formData();
  } catch {
    throw new FormBodyError(400, "The form's multipart body could not be read.");
  }
  const pairs: [string, string][] = [];
  for (const [key, value] of form) {
    if (typeof value !== "string") throw new FormBodyError(415, "Forms carry no files.");
    pairs.push([key, value]);
  }
  return fieldsOf(pairs);
}

/** The reverse of parseForm, for handing a posted form on to React Router. */
export function encodeForm(fields: FormFields): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) params.append(key, v);
  }
  return params.toString();
}
