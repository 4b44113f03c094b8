/**
 * The sub-processors, stated once. The /subprocessors page, its Atom feed, the notices mailed to
 * subscribers, the DPA (sections 5.2 and 5.3, Annex A) and the Privacy Policy (5.1) all read this
 * module. How an operator announces a change is in the README ("Publishing a sub-processor
 * change") and docs/decisions/025-security-and-subprocessors.md.
 */
import { daysBetween, formatDate, isIsoDate, type IsoDate } from "./dates.ts";
import { SITE } from "./site.ts";

/** Where the Atom feed of changes is served (server/plugins/subprocessor-feed.ts). */
export const SUBPROCESSOR_FEED_PATH = "/subprocessors/feed.atom";

/** DPA 5.5: a new or replaced sub-processor is announced at least this many days ahead. */
export const SUBPROCESSOR_NOTICE_DAYS = 30;
/** DPA 5.6: the days a customer has to object after a notice. */
export const OBJECTION_DAYS = 15;

/**
 * The kinds of sub-processor, in the words the DPA and the Privacy Policy use: "cloud
 * infrastructure providers, which host …".
 */
const SUBPROCESSOR_CATEGORIES = {
  cloud: {
    plural: "cloud infrastructure providers",
    role: "host the Services and store the data they hold",
  },
  identity: {
    plural: "identity providers",
    role: "sign users in, keep their password hashes and send password-reset emails, without access to Customer Content",
  },
  ai: {
    plural: "AI model providers",
    role: "process the Customer Content each task needs to generate output, and may not use it to train their models",
  },
  payments: {
    plural: "payment processors",
    role: "process billing information for subscriptions, without access to Customer Content",
  },
  email: {
    plural: "email providers",
    role: "deliver service, account and waitlist emails",
  },
} as const;

type SubprocessorCategory = keyof typeof SUBPROCESSOR_CATEGORIES;

export type Subprocessor = {
  /** Stable, kebab-case; a change names a sub-processor by it. */
  id: string;
  /** The legal entity we contract with. */
  entity: string;
  /** The service of theirs we use. */
  service: string;
  category: SubprocessorCategory;
  /** What it does for us, in one sentence. */
  purpose: string;
  /** Which personal data it receives. */
  data: string;
  /** Where it processes that data. */
  location: string;
  /** Whether it receives Customer Content (the workbooks and what the agents make of them). */
  customerContent: boolean;
};

/**
 * Every sub-processor, in use or announced. One added by a change is engaged from that change's
 * effective date; one a change removes is no longer used from that date. Rows stay after their
 * removal takes effect, so the page and the feed can still name what a change was about.
 */
export const SUBPROCESSORS: readonly Subprocessor[] = [
  {
    id: "google-cloud",
    entity: "Google LLC",
    service: "Google Cloud",
    category: "cloud",
    purpose:
      "Runs the website and the application, with their databases, file storage and backups.",
    data: "Everything the Services hold: Customer Content, account data, waitlist entries and logs.",
    location: "United States",
    customerContent: true,
  },
  {
    id: "firebase-authentication",
    entity: "Google LLC",
    service: "Firebase Authentication",
    category: "identity",
    purpose: "Signs users in, keeps their password hashes and sends password-reset emails.",
    data: "Account email addresses, password hashes and sign-in records. No Customer Content.",
    location: "United States",
    customerContent: false,
  },
  {
    id: "anthropic",
    entity: "Anthropic, PBC",
    service: "Claude API",
    category: "ai",
    purpose: "Runs the AI models that read a task's workbook data and draft its output.",
    data: "The parts of Customer Content and instructions that each task needs.",
    location: "United States",
    customerContent: true,
  },
  {
    id: "stripe",
    entity: "Stripe, Inc.",
    service: "Stripe Payments",
    category: "payments",
    purpose: "Takes card payments and keeps the billing records of subscriptions.",
    data: "Billing contact details, card details and invoices. No Customer Content.",
    location: "United States",
    customerContent: false,
  },
  {
    id: "amazon-ses",
    entity: "Amazon Web Services, Inc.",
    service: "Amazon Simple Email Service",
    category: "email",
    purpose:
      "Delivers the site's emails: waitlist and subscription confirmations, notices and service messages.",
    data: "Recipients' email addresses and names, and the text of those emails. No Customer Content.",
    location: "United States",
    customerContent: false,
  },
];

/** A change to the list, announced on its publication date and in force from its effective date. */
export type SubprocessorChange = {
  /**
   * Stable, kebab-case, never reused: the feed entry's id, the anchor on the page, and part of the
   * key that makes each subscriber's notice go out once.
   */
  id: string;
  /** The day it is published (deployed): the notice period runs from here. */
  published: IsoDate;
  /** The day it takes effect: at least SUBPROCESSOR_NOTICE_DAYS after `published`. */
  effective: IsoDate;
  /** One plain sentence: what changes and why. */
  summary: string;
  /** The id of a sub-processor engaged from `effective`. */
  adds?: string;
  /** The id of a sub-processor no longer used from `effective`. */
  removes?: string;
};

/**
 * Changes, oldest first. To announce one, add it here with today's date as `published`; the build
 * refuses it unless `effective` is at least SUBPROCESSOR_NOTICE_DAYS later (scripts/build.mjs).
 */
export const SUBPROCESSOR_CHANGES: readonly SubprocessorChange[] = [];

/** The day the list as a whole was first published: with the legal texts. */
export const SUBPROCESSORS_LISTED_ON: IsoDate = SITE.legalEffectiveOn;

const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * Everything wrong with a list and its changes, one sentence each (empty when all is well): a
 * notice shorter than SUBPROCESSOR_NOTICE_DAYS, a date that is not a date, a change published
 * after `today` (a change is published by deploying it), an id used twice, a change naming a
 * sub-processor that is not listed. `npm test` and the build both run it.
 */
export function subprocessorProblems(
  list: readonly Subprocessor[],
  changes: readonly SubprocessorChange[],
  today: IsoDate,
): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const row of list) {
    if (!KEBAB.test(row.id)) problems.push(`Sub-processor id "${row.id}" is not kebab-case.`);
    if (ids.has(row.id)) problems.push(`Sub-processor id "${row.id}" is used twice.`);
    ids.add(row.id);
  }
  const changeIds = new Set<string>();
  const named = new Map<string, string>();
  for (const change of changes) {
    const what = `Sub-processor change "${change.id}"`;
    if (!KEBAB.test(change.id)) problems.push(`${what}: its id is not kebab-case.`);
    if (changeIds.has(change.id)) problems.push(`${what}: its id is used twice.`);
    changeIds.add(change.id);
    if (!isIsoDate(change.published) || !isIsoDate(change.effective)) {
      problems.push(`${what}: its dates must be real dates written YYYY-MM-DD.`);
      continue;
    }
    const notice = daysBetween(change.published, change.effective);
    if (notice < SUBPROCESSOR_NOTICE_DAYS)
      problems.push(
        `${what} takes effect ${notice} days after its publication (${formatDate(change.published)} to ${formatDate(change.effective)}); the DPA promises at least ${SUBPROCESSOR_NOTICE_DAYS} days' notice. Move its effective date to ${SUBPROCESSOR_NOTICE_DAYS} or more days after publication.`,
      );
    if (daysBetween(today, change.published) > 0)
      problems.push(
        `${what} is dated ${formatDate(change.published)}, after today: set "published" to the day it is deployed.`,
      );
    if (!change.adds && !change.removes)
      problems.push(`${what} neither adds nor removes a sub-processor.`);
    for (const id of [change.adds, change.removes]) {
      if (id === undefined) continue;
      if (!ids.has(id)) problems.push(`${what} names "${id}", which SUBPROCESSORS does not list.`);
      const other = named.get(`${id}:${id === change.adds ? "adds" : "removes"}`);
      if (other) problems.push(`${what} and "${other}" both change "${id}" the same way.`);
      named.set(`${id}:${id === change.adds ? "adds" : "removes"}`, change.id);
    }
  }
  return problems;
}

/** The change that adds `id`, and the one that removes it, when there are such changes. */
export function changesOf(
  id: string,
  changes: readonly SubprocessorChange[] = SUBPROCESSOR_CHANGES,
) {
  return {
    added: changes.find((c) => c.adds === id),
    removed: changes.find((c) => c.removes === id),
  };
}

/** "Google LLC (Google Cloud)": how a sub-processor is named in sentences. */
export function subprocessorName(row: Pick<Subprocessor, "entity" | "service">): string {
  return `${row.entity} (${row.service})`;
}

/** The sub-processor with `id`; a change can only name one that is listed (see above). */
export function subprocessorById(id: string, list: readonly Subprocessor[] = SUBPROCESSORS) {
  return list.find((row) => row.id === id);
}

/** "cloud infrastructure providers, which host …": a category as the legal texts list it. */
function categoryLine(category: SubprocessorCategory): string {
  const { plural, role } = SUBPROCESSOR_CATEGORIES[category];
  return `${plural}, which ${role}`;
}

/** The categories as a list of clauses ending "; and" / ".", for the DPA and the Privacy Policy. */
export function categoryItems(): string[] {
  const keys = Object.keys(SUBPROCESSOR_CATEGORIES) as SubprocessorCategory[];
  return keys.map((key, i) => {
    const end = i === keys.length - 1 ? "." : i === keys.length - 2 ? "; and" : ";";
    return `${categoryLine(key)}${end}`;
  });
}

/** Where the sub-processors that receive Customer Content process it, without repeats. */
export function customerContentLocations(list: readonly Subprocessor[] = SUBPROCESSORS): string[] {
  return [...new Set(list.filter((row) => row.customerContent).map((row) => row.location))];
}
