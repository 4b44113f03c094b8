/**
 * The qualifying questions (decision 043): shown once a person has confirmed their address, and
 * behind the link in later waitlist news. Every question is optional and the form may be left
 * with one press. A question with one answer is a list to pick from (the first choice, "No
 * answer", leaves it alone); one with several is a set of boxes. It posts to /waitlist/answers,
 * as a plain form, so it works before the app runs and without JavaScript.
 */
import { Form, Link } from "react-router";
import { QUESTIONS, type Answers } from "#src/content/qualifying-questions.ts";
import { ChoiceBoxes } from "#src/features/waitlist/choice-boxes.tsx";
import { Button } from "#src/ui/button.tsx";
import { Field } from "#src/ui/field.tsx";
import { FormAlert } from "#src/ui/form-alert.tsx";

/** Where the form posts, and the page behind the link in later mail. */
const ANSWERS_PATH = "/waitlist/answers";

type Stored = Record<string, string | string[] | undefined>;

export function QuestionsForm({
  token,
  answers,
  message,
  saveLabel = "Save my answers",
}: {
  token: string;
  answers: Answers;
  /** Why the last post was refused, shown above the questions. */
  message?: string | undefined;
  saveLabel?: string;
}) {
  const chosen = answers as Stored;
  return (
    <Form method="post" action={ANSWERS_PATH} noValidate className="mt-7 space-y-6">
      <input type="hidden" name="token" value={token} />
      <FormAlert message={message} />
      {QUESTIONS.map((question) => {
        const value = chosen[question.id];
        if (question.pick === "one")
          return (
            <Field key={question.id} label={question.label}>
              {(props) => (
                <select
                  {...props}
                  name={question.id}
                  defaultValue={typeof value === "string" ? value : ""}
                >
                  <option value="">No answer</option>
                  {question.choices.map((choice) => (
                    <option key={choice.id} value={choice.id}>
                      {choice.label}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          );
        const ticked = new Set(Array.isArray(value) ? value : []);
        return (
          <fieldset key={question.id} className="space-y-2">
            <legend className="text-sm font-semibold text-ink">{question.label}</legend>
            <div className="grid gap-x-4 gap-y-1 sm:grid-cols-2">
              <ChoiceBoxes question={question} ticked={ticked} roomy />
            </div>
          </fieldset>
        );
      })}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <Button type="submit" className="sm:flex-1">
          {saveLabel}
        </Button>
        <Button asChild variant="secondary" className="sm:flex-1">
          <Link to="/">Skip the questions</Link>
        </Button>
      </div>
    </Form>
  );
}
