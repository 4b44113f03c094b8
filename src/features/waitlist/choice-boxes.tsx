/**
 * A qualifying question's choices as boxes, one per choice, named by the question and valued by
 * the choice's id: the form after confirming and the admin list's filters both draw them so.
 */
import type { QUESTIONS } from "#src/content/qualifying-questions.ts";
import { cn } from "#src/lib/cn.ts";

export function ChoiceBoxes({
  question,
  ticked,
  roomy,
}: {
  question: (typeof QUESTIONS)[number];
  ticked: ReadonlySet<string>;
  /** The person's form: larger targets and text than the admin's filters. */
  roomy: boolean;
}) {
  return question.choices.map((choice) => (
    <label
      key={choice.id}
      className={cn(
        "flex items-center",
        roomy ? "min-h-11 gap-3 text-ink" : "min-h-9 gap-2 text-sm",
      )}
    >
      <input
        type="checkbox"
        name={question.id}
        value={choice.id}
        defaultChecked={ticked.has(choice.id)}
        className="size-4 shrink-0 accent-ledger"
      />
      {choice.label}
    </label>
  ));
}
