/**
 * Which request bodies are read: JSON (Fastify's own parser) and HTML forms. Anything else is
 * refused with 415 before a route sees it.
 */
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

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

async function forms(app: FastifyInstance) {
  app.removeContentTypeParser("text/plain");
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string" },
    (_req, body, done) => {
      done(null, parseForm(body as string));
    },
  );
}

export default fp(forms, { name: "forms" });
