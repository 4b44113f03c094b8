/**
 * The questions a person may answer after confirming their address (issue 37, decision 043): the
 * one source of their wording and their choices, for the form after confirming, the page behind
 * the link in later mail, the admin list's column and filters, and the database's checks of what
 * an answer may hold. A choice's `id` is what is stored; its label may be reworded freely. An id is
 * never reused for another meaning: retire it instead, and answers that named it stay readable.
 */

type Choice = { readonly id: string; readonly label: string };

type Question = {
  readonly id: string;
  /** The question as the form asks it. */
  readonly label: string;
  /** The column's and the filter's short name on the admin pages. */
  readonly short: string;
  /** One choice (a set of radio buttons) or several (checkboxes). */
  readonly pick: "one" | "many";
  readonly choices: readonly Choice[];
};

const US_STATES = [
  ["al", "Alabama"],
  ["ak", "Alaska"],
  ["az", "Arizona"],
  ["ar", "Arkansas"],
  ["ca", "California"],
  ["co", "Colorado"],
  ["ct", "Connecticut"],
  ["de", "Delaware"],
  ["dc", "District of Columbia"],
  ["fl", "Florida"],
  ["ga", "Georgia"],
  ["hi", "Hawaii"],
  ["id", "Idaho"],
  ["il", "Illinois"],
  ["in", "Indiana"],
  ["ia", "Iowa"],
  ["ks", "Kansas"],
  ["ky", "Kentucky"],
  ["la", "Louisiana"],
  ["me", "Maine"],
  ["md", "Maryland"],
  ["ma", "Massachusetts"],
  ["mi", "Michigan"],
  ["mn", "Minnesota"],
  ["ms", "Mississippi"],
  ["mo", "Missouri"],
  ["mt", "Montana"],
  ["ne", "Nebraska"],
  ["nv", "Nevada"],
  ["nh", "New Hampshire"],
  ["nj", "New Jersey"],
  ["nm", "New Mexico"],
  ["ny", "New York"],
  ["nc", "North Carolina"],
  ["nd", "North Dakota"],
  ["oh", "Ohio"],
  ["ok", "Oklahoma"],
  ["or", "Oregon"],
  ["pa", "Pennsylvania"],
  ["ri", "Rhode Island"],
  ["sc", "South Carolina"],
  ["sd", "South Dakota"],
  ["tn", "Tennessee"],
  ["tx", "Texas"],
  ["ut", "Utah"],
  ["vt", "Vermont"],
  ["va", "Virginia"],
  ["wa", "Washington"],
  ["wv", "West Virginia"],
  ["wi", "Wisconsin"],
  ["wy", "Wyoming"],
] as const;

export const QUESTIONS = [
  {
    id: "firmSize",
    label: "How many people work at your firm?",
    short: "Firm size",
    pick: "one",
    choices: [
      { id: "solo", label: "Just me" },
      { id: "2-5", label: "2 to 5" },
      { id: "6-20", label: "6 to 20" },
      { id: "21-100", label: "21 to 100" },
      { id: "100+", label: "More than 100" },
    ],
  },
  {
    id: "role",
    label: "What is your role?",
    short: "Role",
    pick: "one",
    choices: [
      { id: "owner", label: "Owner or partner" },
      { id: "manager", label: "Manager or reviewer" },
      { id: "preparer", label: "Preparer or staff accountant" },
      { id: "operations", label: "Operations or IT" },
      { id: "other", label: "Something else" },
    ],
  },
  {
    id: "software",
    label: "Which tax and accounting software do you use?",
    short: "Software",
    pick: "many",
    choices: [
      { id: "ultratax", label: "UltraTax CS" },
      { id: "cch-axcess", label: "CCH Axcess Tax" },
      { id: "cch-prosystem", label: "CCH ProSystem fx Tax" },
      { id: "lacerte", label: "Lacerte" },
      { id: "proseries", label: "ProSeries" },
      { id: "proconnect", label: "ProConnect Tax" },
      { id: "drake", label: "Drake Tax" },
      { id: "gosystem", label: "GoSystem Tax RS" },
      { id: "taxact", label: "TaxAct Professional" },
      { id: "quickbooks", label: "QuickBooks" },
      { id: "xero", label: "Xero" },
      { id: "sage", label: "Sage" },
      { id: "netsuite", label: "NetSuite" },
      { id: "other", label: "Other software" },
    ],
  },
  {
    id: "returns",
    label: "Which returns do you prepare?",
    short: "Returns",
    pick: "many",
    choices: [
      { id: "1040", label: "Individuals (Form 1040)" },
      { id: "1065", label: "Partnerships (Form 1065)" },
      { id: "1120s", label: "S corporations (Form 1120-S)" },
      { id: "1120", label: "C corporations (Form 1120)" },
      { id: "1041", label: "Trusts and estates (Form 1041)" },
      { id: "990", label: "Exempt organisations (Form 990)" },
      { id: "706-709", label: "Estate and gift (Forms 706 and 709)" },
    ],
  },
  {
    id: "practice",
    label: "Where do you mainly practise?",
    short: "Where",
    pick: "one",
    choices: [
      ...US_STATES.map(([id, label]) => ({ id: `us-${id}`, label })),
      { id: "outside-us", label: "Outside the United States" },
    ],
  },
] as const satisfies readonly Question[];

export type QuestionId = (typeof QUESTIONS)[number]["id"];
type QuestionOf<Id extends QuestionId> = Extract<(typeof QUESTIONS)[number], { id: Id }>;
type ChoiceOf<Id extends QuestionId> = QuestionOf<Id>["choices"][number]["id"];

/**
 * A person's answers: a question left alone is absent; a "one" question holds a choice, a "many"
 * question a non-empty list of them, each once, in the order the form lists them.
 */
export type Answers = {
  [Id in QuestionId]?: QuestionOf<Id>["pick"] extends "many" ? ChoiceOf<Id>[] : ChoiceOf<Id>;
};

function questionOf(id: QuestionId): Question {
  return QUESTIONS.find((q) => q.id === id)!;
}

/** The label of a stored choice; an id the source no longer has is shown as it is. */
export function choiceLabel(question: QuestionId, choice: string): string {
  return questionOf(question).choices.find((c) => c.id === choice)?.label ?? choice;
}
