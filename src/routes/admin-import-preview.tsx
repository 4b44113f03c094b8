import { data, redirect } from "react-router";
import { ImportDoneView, ImportPreviewView } from "#src/features/import/import-view.tsx";
import { formText } from "#src/lib/form-text.ts";
import { requireAdmin } from "#src/lib/guards.ts";
import { failure, refusal } from "#src/lib/http-errors.ts";
import {
  IMPORT_FIELDS,
  type ImportRefusal,
  type Mapping,
  type OutcomeCounts,
} from "#src/lib/imports.ts";
import { pageMeta } from "#src/lib/meta.ts";
import { SIGNED_IN_ONLY } from "#src/lib/route-handle.ts";
import type { Route } from "./+types/admin-import-preview";
import { loadContext } from "#src/load-context.ts";

export const handle = SIGNED_IN_ONLY;

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });
export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Import preview",
    description: "What importing a sheet would do, row by row, for administrators.",
    noindex: true,
  });

const UNAVAILABLE = "Imports are unavailable for a moment. Please try again in a minute.";
const GONE =
  "This upload is no longer there: it was imported already, or is older than a day. Upload the file again.";

/** A column's index as a field names it, or nothing (-1, absent, or not a number). */
function mappingOf(read: (field: string) => string | null): Mapping | null {
  if (IMPORT_FIELDS.every((field) => read(field) === null)) return null;
  const mapping: Mapping = {};
  for (const field of IMPORT_FIELDS) {
    const value = read(field);
    if (value !== null && /^\d{1,4}$/.test(value)) mapping[field] = Number(value);
  }
  return mapping;
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const server = context.get(loadContext);
  const admin = await requireAdmin(server, "This account may not import.");
  const query = new URL(request.url).searchParams;
  let preview, done;
  try {
    preview = await server.imports.preview(
      params.id,
      mappingOf((f) => query.get(f)),
    );
    // Imported already: the page says what the import did (the import's own redirect lands here).
    done = preview ? null : await server.imports.done(params.id);
  } catch {
    throw failure(server, UNAVAILABLE);
  }
  if (done) return { done, preview: null, stepUpUntil: admin.stepUpUntil };
  if (!preview) throw refusal(404, GONE);
  return { done: null, preview, stepUpUntil: admin.stepUpUntil };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const server = context.get(loadContext);
  const admin = await requireAdmin(server, "This account may not import.");
  const form = await request.formData();
  const refuse = (message: string, status: number) =>
    data<ImportRefusal>({ ok: false, message }, { status });
  if (!admin.stepUpUntil)
    return refuse(
      "Confirm it's you: an import needs your passkey within the last 15 minutes. Press Import again to use it.",
      401,
    );
  const basis = formText(form, "basis");
  if (basis !== "confirmed" && basis !== "unconfirmed")
    return refuse("Say how these people agreed to hear from you: pick one of the two.", 422);
  const count = (kind: string) => Number(formText(form, `expected-${kind}`));
  const expected: OutcomeCounts = {
    new: count("new"),
    exists: count("exists"),
    duplicate: count("duplicate"),
    suppressed: count("suppressed"),
    invalid: count("invalid"),
  };
  const mapping = mappingOf((f) => (form.has(f) ? formText(form, f) : null)) ?? {};
  try {
    const result = await server.imports.run(
      params.id,
      mapping,
      basis,
      formText(form, "statement"),
      expected,
      { adminEmail: admin.email, clientAddress: server.clientAddress },
    );
    // Done: to the page that says what it did, so a reload cannot post the import again.
    if (result.ok) return redirect(`/admin/import/${params.id}`, 303);
    return data<ImportRefusal>(result, { status: 409 });
  } catch {
    throw failure(server, UNAVAILABLE);
  }
}

export default function AdminImportPreview({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.done) return <ImportDoneView done={loaderData.done} />;
  return (
    <ImportPreviewView
      preview={loaderData.preview}
      stepUpUntil={loaderData.stepUpUntil}
      reply={actionData}
    />
  );
}
