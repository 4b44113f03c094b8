/**
 * "Confirm it's you" before a sensitive admin action (decision 039): a form whose action needs a
 * passkey within the last 15 minutes asks for it first, then sends itself as it would have. The
 * server checks again; without JavaScript its answer says what is needed.
 */
import { useState, type FormEvent } from "react";
import { useRevalidator, useSubmit } from "react-router";
import { NEEDS_APP } from "#src/lib/needs-app.ts";
import { CeremonyError, stepUpIsFresh, verifyWithPasskey } from "#src/lib/passkey-ceremonies.ts";

export function useStepUp(stepUpUntil: string | null) {
  const submit = useSubmit();
  const revalidator = useRevalidator();
  const [error, setError] = useState<string>();

  /** Resolves true once the step-up is fresh (asking for the passkey when it is not). */
  async function confirm(): Promise<boolean> {
    if (stepUpIsFresh(stepUpUntil)) return true;
    setError(undefined);
    try {
      await verifyWithPasskey();
      // The page learns its new step-up time, so the next action does not ask again.
      void revalidator.revalidate();
      return true;
    } catch (e) {
      setError(e instanceof CeremonyError ? e.message : "Your passkey could not be checked.");
      return false;
    }
  }

  /**
   * A form's props: when `needs` says a submission needs a step-up and it has lapsed, the passkey
   * is asked for, then the form is sent with the button that was pressed. Pressed before the app
   * is ready, the form waits for it rather than being sent without the passkey (decision 040).
   */
  function form(needs: (submitter: HTMLButtonElement | null) => boolean = () => true) {
    return { ...NEEDS_APP, onSubmit: onSubmit(needs) };
  }

  function onSubmit(needs: (submitter: HTMLButtonElement | null) => boolean) {
    return (event: FormEvent<HTMLFormElement>) => {
      const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
      if (!needs(submitter) || stepUpIsFresh(stepUpUntil)) return;
      event.preventDefault();
      const data = new FormData(event.currentTarget, submitter);
      const method = (event.currentTarget.getAttribute("method") ?? "post").toLowerCase();
      void confirm().then((ok) => {
        if (ok) void submit(data, { method: method === "get" ? "get" : "post" });
      });
    };
  }

  return { confirm, form, error };
}
