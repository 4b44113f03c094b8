/**
 * The entry's name and company as fields, the same wherever an entry is typed: the waitlist form,
 * and the confirm page where the owner corrects what was typed in their name (decision 036).
 */
import { WAITLIST_LIMITS } from "#src/features/waitlist/schema.ts";
import { Field } from "#src/ui/field.tsx";

type EntryFieldProps = { error: string | undefined; defaultValue: string | undefined };

export function FullNameField({ error, defaultValue }: EntryFieldProps) {
  return (
    <Field label="Full Name" error={error}>
      {(props) => (
        <input
          {...props}
          name="name"
          required
          maxLength={WAITLIST_LIMITS.name}
          autoComplete="name"
          defaultValue={defaultValue}
        />
      )}
    </Field>
  );
}

export function CompanyField({ error, defaultValue }: EntryFieldProps) {
  return (
    <Field label="Company (Optional)" error={error}>
      {(props) => (
        <input
          {...props}
          name="company"
          maxLength={WAITLIST_LIMITS.company}
          autoComplete="organization"
          defaultValue={defaultValue}
        />
      )}
    </Field>
  );
}
