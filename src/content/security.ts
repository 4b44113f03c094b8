/**
 * The /security page: what we do to protect the data firms bring to the product, for the people
 * who vet vendors. Every figure comes from SECURITY_FACTS, the sub-processor list or SITE, the
 * same sources as the DPA and the Privacy Policy; where a promise is contractual, the page links
 * to the clause that makes it.
 */
import { formatDate } from "./dates.ts";
import type { LegalDocument } from "./legal-types.ts";
import { SECURITY_FACTS } from "./security-facts.ts";
import { SITE } from "./site.ts";
import {
  customerContentLocations,
  SUBPROCESSOR_NOTICE_DAYS,
  SUBPROCESSORS,
  subprocessorName,
} from "./subprocessors.ts";

const NAME = SITE.name;
const F = SECURITY_FACTS;
const HOSTS = SUBPROCESSORS.filter((row) => row.category === "cloud").map(subprocessorName);
/** "the United States", "Ireland": a country as it reads after "in". */
const inCountry = (country: string) =>
  /^(United |Netherlands$|Philippines$)/.test(country) ? `the ${country}` : country;
const LOCATIONS = customerContentLocations().map(inCountry);

/** "A", "A and B", "A, B and C". */
function joined(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

export const SECURITY_PAGE: LegalDocument = {
  title: "Security",
  effectiveLine: `Last updated ${formatDate("2026-11-23")}`,
  preamble: [
    {
      kind: "paragraph",
      text: `Accounting firms trust ${NAME} with client workbooks, tax records and the people named in them. This page says plainly how we protect that data and what we do not claim. Where a commitment is contractual, the Data Processing Addendum is the binding text; the figures here are the ones it states.`,
      link: { words: "Data Processing Addendum", href: "/dpa" },
    },
  ],
  sections: [
    {
      id: "encryption",
      title: "Encryption",
      blocks: [
        {
          kind: "paragraph",
          text: `Data travelling between your browser or the Excel add-in and our servers, and between our servers and our sub-processors, is encrypted with ${F.encryptionInTransit} or higher. Our web domains send HTTP Strict Transport Security, so browsers never fall back to unencrypted connections.`,
        },
        {
          kind: "paragraph",
          text: `Databases, file storage and backups are encrypted at rest with ${F.encryptionAtRest}. The keys are held in our cloud provider's managed key service; only authorized systems and staff can use them, and every use is logged.`,
        },
      ],
    },
    {
      id: "where-data-lives",
      title: "Where your data lives",
      blocks: [
        {
          kind: "paragraph",
          text: `The Services run on ${joined(HOSTS)}. Every sub-processor that receives Customer Content processes it in ${joined(LOCATIONS)}.`,
        },
        {
          kind: "paragraph",
          text: `Our sub-processors page names each company that processes data for us, what it does, the data it receives and where. A change is published there at least ${SUBPROCESSOR_NOTICE_DAYS} days before it takes effect, with email notice to subscribers and an Atom feed.`,
          link: { words: "Our sub-processors page", href: "/subprocessors" },
        },
      ],
    },
    {
      id: "ai-and-your-data",
      title: "AI models and your data",
      blocks: [
        {
          kind: "paragraph",
          text: `Customer Content is not used to train AI models. We do not train or fine-tune any model on it, ours or anyone else's; section 2.5 of the DPA would allow that only with your firm's prior written consent. Our contracts with AI model providers forbid them to train on it at all.`,
          link: { words: "section 2.5 of the DPA", href: "/dpa#details-of-processing" },
        },
        {
          kind: "paragraph",
          text: `For each task, only the parts of a workbook and the instructions that the task needs are sent to the model, and its answer comes back to your workbook for your review.`,
        },
      ],
    },
    {
      id: "access-and-logging",
      title: "Access control and logging",
      blocks: [
        { kind: "paragraph", text: "Who can reach your data, and what is recorded when they do:" },
        {
          kind: "list",
          items: [
            "Staff get access on a least-privilege, need-to-know basis, with individual accounts and no shared administrator credentials.",
            "Multi-factor authentication is required for all administrative access to production systems, cloud consoles and source code.",
            "Access rights are reviewed at least every quarter and removed promptly when someone changes role or leaves.",
            "Our staff do not open Customer Content unless you ask for support and give us access, a security investigation needs it, or the law requires it.",
            `Audit logs record administrative access and security events, are protected against alteration and are kept for at least ${F.auditLogMonths} months.`,
          ],
        },
      ],
    },
    {
      id: "incidents",
      title: "Security incidents",
      blocks: [
        {
          kind: "paragraph",
          text: `If a security incident affects your firm's personal data, we notify you without undue delay and no later than ${F.incidentNoticeHours} hours after we become aware of it: what happened, which data and people are affected, whom to contact, and what we are doing about it. This is the commitment in section 7 of the DPA.`,
          link: { words: "section 7 of the DPA", href: "/dpa#security-incidents" },
        },
      ],
    },
    {
      id: "retention-and-deletion",
      title: "Retention and deletion",
      blocks: [
        {
          kind: "paragraph",
          text: `While your account is open, your data stays until you delete it. After the account closes you can export your data for ${F.exportWindowDays} days. We then delete it from our active systems within ${F.activeDeletionDays} days of closure, and from our backups within ${F.backupDeletionDays} days of closure as they expire. These are the periods of our Privacy Policy.`,
          link: { words: "our Privacy Policy", href: "/privacy-policy#retention" },
        },
      ],
    },
    {
      id: "certifications",
      title: "Certifications and audits",
      blocks: [
        {
          kind: "paragraph",
          text: `${NAME} does not hold a SOC 2 report or an ISO/IEC 27001 certification, and we do not claim either. The data centres we use belong to our cloud provider, whose own independent audits we review.`,
        },
        {
          kind: "paragraph",
          text: `On request, under confidentiality, we share summaries of our security policies and answer your firm's security questionnaire. Write to ${SITE.contactEmail}.`,
          link: { words: SITE.contactEmail, href: `mailto:${SITE.contactEmail}` },
        },
      ],
    },
    {
      id: "wisp",
      title: "Citing us in your WISP",
      blocks: [
        {
          kind: "paragraph",
          text: `Tax preparers are covered by the FTC Safeguards Rule (16 CFR Part 314). It asks a firm to keep a written information security program (WISP) and to oversee its service providers: choose ones able to protect customer information, require those safeguards by contract, and check on them from time to time. To record ${NAME} in your WISP:`,
        },
        {
          kind: "list",
          items: [
            `list ${SITE.legalEntity} as a service provider that stores and processes client data for workpapers and tax preparation;`,
            "cite the Data Processing Addendum as the contract: section 4 and Annex A set out the safeguards, section 5 the sub-processors, section 7 incident notice and section 8 deletion;",
            "cite this page and the sub-processor list as the provider's published practices, and subscribe to the list's change notices as part of your monitoring;",
            "ask us once a year for our security documentation, and record that review.",
          ],
        },
      ],
    },
    {
      id: "tax-return-information",
      title: "Tax return information (IRC §7216)",
      blocks: [
        {
          kind: "paragraph",
          text: `Section 7216 of the Internal Revenue Code and its regulations (26 CFR 301.7216) limit how tax return preparers, and those who help them prepare returns, may use and disclose tax return information. We treat everything your firm brings into ${NAME} as tax return information under those rules:`,
        },
        {
          kind: "list",
          items: [
            "we use it only to provide the Services your firm asked for, on its instructions;",
            "we disclose it only to the sub-processors needed to provide those Services, each bound by contract to the same limits;",
            "we never sell it, use it for marketing, or use it to train AI models;",
            `we process it in ${joined(LOCATIONS)}; and`,
            "we do not use or disclose it for any purpose that would need your client's consent under those regulations.",
          ],
        },
        {
          kind: "paragraph",
          text: "Whether your firm's own uses and disclosures need a client's consent is for your firm to judge; we do not give tax or legal advice.",
        },
      ],
    },
    {
      id: "report-a-vulnerability",
      title: "Report a vulnerability",
      blocks: [
        {
          kind: "paragraph",
          text: `If you find a security weakness in ${NAME}, write to ${SITE.securityEmail} with what you found, where, and the steps to reproduce it. A person reads every report and replies within ${F.vulnerabilityAckBusinessDays} business days.`,
          link: { words: SITE.securityEmail, href: `mailto:${SITE.securityEmail}` },
        },
        { kind: "paragraph", text: "While you investigate, please:" },
        {
          kind: "list",
          items: [
            "test only with your own account and data;",
            "do not read, change or delete other people's data, and stop and tell us if you reach any;",
            "do not degrade the service: no denial-of-service tests, spam, or social engineering of our staff; and",
            "give us reasonable time to fix the issue before you disclose it.",
          ],
        },
        {
          kind: "paragraph",
          text: `We will not take legal action against anyone who follows these rules in good faith, and we will credit you when the fix ships if you wish. We do not run a paid bug bounty. The same contact is in our security.txt file at /.well-known/security.txt, for tools that look for it.`,
        },
      ],
    },
  ],
};
