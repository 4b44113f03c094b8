/**
 * Saved audiences on the admin list (decision 044): the list's filter saved under a name, each
 * audience with what it holds now, a link that shows it, a Delete, and an invitation batch whose
 * button says how many it invites before anything is sent. Plain POST forms: they work without
 * JavaScript; a batch asks for a passkey within the last 15 minutes, as Invite selected does.
 */
import { Form, Link } from "react-router";
import { AUDIENCE_SAVE, audienceAction } from "#src/features/waitlist/admin-form.ts";
import {
  describeFilter,
  entryFilterOf,
  entryFilterText,
  INVITE_BATCH_MAX,
  narrows,
  type EntryFilter,
} from "#src/features/waitlist/entry-filter.ts";
import type { SavedAudience } from "#src/features/waitlist/types.ts";
import type { useStepUp } from "#src/lib/use-step-up.ts";
import { Button } from "#src/ui/button.tsx";

const count = (n: number) => n.toLocaleString("en-US");

/** The props a form gets from the step-up hook. */
type StepUpForm = ReturnType<ReturnType<typeof useStepUp>["form"]>;

export function AudiencesPanel({
  audiences,
  filter,
  stepUpForm,
}: {
  audiences: SavedAudience[];
  /** The list's filter now: what "Save audience" saves. */
  filter: EntryFilter;
  stepUpForm: StepUpForm;
}) {
  return (
    <section aria-labelledby="audiences-heading" className="mt-8 max-w-4xl">
      <h2 id="audiences-heading" className="font-serif text-2xl font-semibold">
        Audiences
      </h2>
      {narrows(filter) ? (
        // A new audience empties the name field: the form is drawn anew when the list grows.
        <Form key={audiences.length} method="post" className="mt-3 flex flex-wrap items-end gap-3">
          <input type="hidden" name="audience_filter" value={entryFilterText(filter)} />
          <div className="min-w-56 flex-1">
            <label htmlFor="audience-name" className="block text-sm font-semibold">
              Save this filter as an audience
            </label>
            <input
              id="audience-name"
              name="audience_name"
              maxLength={80}
              autoComplete="off"
              aria-describedby="audience-what"
              className="mt-1.5 block min-h-11 w-full rounded-md border border-rule bg-white px-3.5"
            />
            <p id="audience-what" className="mt-1 text-sm text-ink-soft">
              Entries {describeFilter(filter)}.
            </p>
          </div>
          <Button type="submit" name="act" value={AUDIENCE_SAVE} variant="secondary">
            Save audience
          </Button>
        </Form>
      ) : (
        <p className="mt-2 text-ink-soft">
          Narrow the list with the search and filters above, then save it as an audience: a
          broadcast or an invitation batch can aim at it.
        </p>
      )}
      {audiences.length === 0 ? (
        <p className="mt-3 text-ink-soft">No audience is saved yet.</p>
      ) : (
        <ul className="mt-4 divide-y divide-rule rounded-xl border border-rule bg-card">
          {audiences.map((a) => {
            const batch = Math.min(a.invitable, INVITE_BATCH_MAX);
            return (
              <li key={a.id} className="flex flex-wrap items-center justify-between gap-3 p-4">
                <div className="min-w-0">
                  <p className="font-semibold">
                    <Link
                      to={`/admin/waitlist?${a.filter}`}
                      className="text-ledger-dark underline-offset-4 hover:underline"
                    >
                      {a.name}
                    </Link>
                  </p>
                  <p className="text-sm text-ink-soft">
                    Entries {describeFilter(entryFilterOf(new URLSearchParams(a.filter)))}:{" "}
                    {count(a.entries)} now, {count(a.invitable)} confirmed and not yet invited.
                  </p>
                </div>
                <Form method="post" className="flex flex-wrap gap-2" {...stepUpForm}>
                  <input type="hidden" name="expect" value={batch} />
                  {batch > 0 ? (
                    <Button
                      type="submit"
                      name="act"
                      value={audienceAction("invite", a.id)}
                      size="sm"
                      aria-label={`Invite ${count(batch)} in ${a.name}`}
                    >
                      {a.invitable > INVITE_BATCH_MAX
                        ? `Invite the first ${count(batch)} of ${count(a.invitable)}`
                        : `Invite ${count(batch)}`}
                    </Button>
                  ) : null}
                  <Button
                    type="submit"
                    name="act"
                    value={audienceAction("delete", a.id)}
                    variant="ghost"
                    size="sm"
                    aria-label={`Delete the audience ${a.name}`}
                  >
                    Delete
                  </Button>
                </Form>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
