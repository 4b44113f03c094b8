/**
 * Privacy Policy, written for this product.
 * Every site fact (name, entity, email, address, support hours, date) comes from SITE.
 */
import type { LegalDocument } from "./legal-types.ts";
import { SECURITY_FACTS } from "./security-facts.ts";
import { postalAddress, SITE } from "./site.ts";
import { categoryItems } from "./subprocessors.ts";

const NAME = SITE.name;
const ENTITY = SITE.legalEntity;
const EMAIL = SITE.contactEmail;
const POSTAL_ADDRESS = postalAddress(ENTITY);

export const PRIVACY_POLICY: LegalDocument = {
  title: "Privacy Policy",
  effectiveLine: `Effective ${SITE.legalEffectiveDate}`,
  preamble: [
    {
      kind: "paragraph",
      text: `This Privacy Policy explains how ${ENTITY} ("${NAME}", "we", "us" or "our") collects, uses, shares and protects personal information when you visit our website, join our waitlist, create an account, or use our AI agents in Microsoft Excel and our Microsoft Office add-in (together, the "Service"). It also explains the choices and rights you have.`,
    },
    {
      kind: "paragraph",
      text: `Words such as "Customer Content" and "AI Output" have the meaning given in our Terms of Service.`,
    },
  ],
  sections: [
    {
      id: "who-we-are",
      number: "1",
      title: "Who We Are and When This Policy Applies",
      blocks: [
        {
          kind: "clause",
          number: "1.1",
          heading: "We are the controller of site and account data",
          text: `${ENTITY} is a company based in ${SITE.address.city}, ${SITE.address.regionName}, ${SITE.address.countryName}. For information about visitors to our website, people on our waitlist, account holders and billing contacts, we decide why and how the information is used, and we act as the controller (or, under US state privacy laws, the "business") responsible for it.`,
        },
        {
          kind: "clause",
          number: "1.2",
          heading: "We are a processor of Customer Content",
          text: `When our customers, such as accounting firms and tax practices, use the Service to work on their workbooks and files, we process the Customer Content on their behalf and on their instructions. For that information we act as a processor (or "service provider"), and our customer is the controller. Our Terms of Service and our Data Processing Addendum govern that processing, and our customer's own privacy notice explains how it uses the information.`,
        },
        {
          kind: "clause",
          number: "1.3",
          heading: "If you are a client of one of our customers",
          text: `If your information appears in a workbook that an accountant or tax preparer handles with ${NAME}, please direct privacy questions and requests to that accountant or tax preparer. If you contact us instead, we will pass your request to them.`,
        },
        {
          kind: "clause",
          number: "1.4",
          heading: "What this policy does not cover",
          text: `This policy does not cover third-party websites or services, including Microsoft Excel and Microsoft Office, which are governed by their providers' own privacy statements.`,
        },
      ],
    },
    {
      id: "information-we-collect",
      number: "2",
      title: "Information We Collect",
      blocks: [
        {
          kind: "clause",
          number: "2.1",
          heading: "Account data",
          text: `When you create or use an account, we collect:`,
          items: [
            `your name, email address and company name;`,
            `your password, which is handled by our identity provider and stored only as a salted cryptographic hash; we never store your password in plain text and cannot read it;`,
            `your account settings and, if you belong to an organization account, your role in it; and`,
            `billing information, which you enter directly with our card payment processor. The processor handles your full card details; we receive only limited information from it, such as the card brand, the last four digits, the expiry date, the billing name and address, and whether a payment succeeded.`,
          ],
        },
        {
          kind: "clause",
          number: "2.2",
          heading: "Customer Content",
          text: `This is the content you work on with the Service: the workbooks, worksheets and files you process in Excel with our add-in or upload to the Service, the prompts and instructions you give the AI agents, and the AI Output they generate. Customer Content may include personal information about your clients and other people, such as names, addresses, taxpayer identification numbers and financial details. We process it only as described in section 1.2.`,
        },
        {
          kind: "clause",
          number: "2.3",
          heading: "Usage data",
          text: `When you use the website or the Service, we automatically collect technical information, such as your IP address, browser and operating system, your version and platform of Excel or Office, the pages you view and the features you use, dates and times, and error and diagnostic reports. We may infer an approximate location, at city or country level, from your IP address. Usage data does not include the contents of your workbooks. On our website, visits are counted on our own server as totals per page, per day and per source (the campaign tag in the link you followed, or the site that sent you): these counts use no cookie and no third-party script, and do not keep your IP address or anything else that could single you out.`,
        },
        {
          kind: "clause",
          number: "2.4",
          heading: "Waitlist data",
          text: `When you join the waitlist, we collect your name, your email address, your company (if you give one) and what you tell us about your intended use. We also record the campaign parameters in the link you followed to reach our site (for example, tags naming the campaign or source), the referring page from which you arrived, and the time of your request. We use the IP address of the request to protect the waitlist against abuse. Once you confirm your address, we offer a few optional questions about your firm (its size, your role, the software you use, the returns you prepare and where you practise); we keep the answers you give, and when you last changed them, with your entry, and use them to decide whom to invite first. You may leave any of them unanswered and change your answers later from the link in our waitlist mail. We also offer you a link to share with colleagues: it carries a random code of your entry, not your name or address. If someone joins through it, we record on their entry that your link brought them, and show it to the people at ${NAME} who choose whom to invite. It never changes anyone's place on the list. If either entry is erased, the record goes with it.`,
        },
        {
          kind: "clause",
          number: "2.5",
          heading: "Communications",
          text: `When you email us, we keep your message, your contact details and our reply so that we can help you and keep a record of the conversation.`,
        },
      ],
    },
    {
      id: "how-we-use-information",
      number: "3",
      title: "How We Use Information",
      blocks: [
        {
          kind: "clause",
          number: "3.1",
          heading: "Purposes",
          text: `We use the information described in section 2 to:`,
          items: [
            `provide, operate and maintain the Service, including running the AI agents you ask to perform tasks;`,
            `create and manage accounts and sign you in securely;`,
            `manage free trials and subscriptions, process payments and send receipts and billing reminders;`,
            `run the waitlist, invite people to the beta and understand which campaigns and pages lead people to us;`,
            `answer your questions and provide support;`,
            `send you messages about the Service, such as security alerts and notices of changes to our terms or this policy;`,
            `send you news about ${NAME}, where the law allows or you have agreed; you may unsubscribe at any time;`,
            `keep the Service secure and detect, prevent and investigate fraud, abuse and security incidents;`,
            `diagnose problems and improve the Service using usage data, but not Customer Content; and`,
            `comply with the law, respond to lawful requests, and establish, exercise or defend legal claims.`,
          ],
        },
        {
          kind: "clause",
          number: "3.2",
          heading: "Legal bases",
          text: `Where the law of the European Economic Area, the United Kingdom or Switzerland applies, we rely on the following legal bases:`,
          items: [
            `performance of a contract, to provide the Service and manage your account and subscription;`,
            `our legitimate interests, to run the waitlist and measure our campaigns, keep the Service secure, improve it and communicate with business contacts, where those interests are not overridden by your rights;`,
            `your consent, where we ask for it, such as for certain marketing emails; you may withdraw consent at any time without affecting earlier processing; and`,
            `compliance with legal obligations, such as tax and accounting record-keeping.`,
          ],
        },
        {
          kind: "clause",
          number: "3.3",
          heading: "What we do not do",
          text: `We do not sell personal information, share it for cross-context behavioral advertising, or use it for targeted advertising. We do not make decisions about you based solely on automated processing that have legal or similarly significant effects on you.`,
        },
      ],
    },
    {
      id: "ai-processing",
      number: "4",
      title: "How AI Processes Your Content",
      blocks: [
        {
          kind: "clause",
          number: "4.1",
          heading: "How it works",
          text: `When you ask an AI agent to perform a task, the parts of your Customer Content and instructions needed for that task are sent from our servers to the AI model providers we engage. They generate a response, which we return to you, usually by writing it into your workbook.`,
        },
        {
          kind: "clause",
          number: "4.2",
          heading: "No training on your content",
          text: `We do not use Customer Content to train or fine-tune AI models, whether our own or anyone else's, without your express prior consent. Our contracts with AI model providers prohibit them from using Customer Content to train their models.`,
        },
        {
          kind: "clause",
          number: "4.3",
          heading: "AI model providers are sub-processors",
          text: `AI model providers process Customer Content only on our behalf, as our sub-processors, under written terms that require them to keep it confidential and secure and to use it only to provide their services to us.`,
        },
        {
          kind: "clause",
          number: "4.4",
          heading: "Human access",
          text: `Our staff do not view Customer Content except where you ask for support and give us access, where it is necessary to investigate a security issue or abuse, or where the law requires it.`,
        },
        {
          kind: "clause",
          number: "4.5",
          heading: "Accuracy",
          text: `AI Output can be inaccurate. As our Terms of Service explain, you must review it before relying on it. If AI Output contains inaccurate personal information, you can correct it in your workbook.`,
        },
      ],
    },
    {
      id: "sharing-and-sub-processors",
      number: "5",
      title: "How We Share Information",
      blocks: [
        {
          kind: "clause",
          number: "5.1",
          heading: "Service providers and sub-processors",
          text: `We share personal information with companies that provide services to us, under written contracts that limit their use of it to providing those services. They fall into these categories:`,
          items: categoryItems(),
        },
        {
          kind: "clause",
          number: "5.2",
          heading: "Current list",
          text: `We publish a current list of our sub-processors on our website, with every change to it, or you may ask for it at ${EMAIL}. Customers who have agreed to our Data Processing Addendum receive notice of new sub-processors as that addendum describes, and anyone may subscribe to the same notices by email on that page.`,
          link: { words: "a current list of our sub-processors", href: "/subprocessors" },
        },
        {
          kind: "clause",
          number: "5.3",
          heading: "Other disclosures",
          text: `We may also disclose personal information:`,
          items: [
            `within your organization, for example to the administrators of your organization's account;`,
            `when you direct us to or consent to it;`,
            `to comply with the law or a valid legal process, such as a subpoena or court order, or to respond to a lawful request from a public authority;`,
            `to protect the rights, property or safety of ${NAME}, our users or others, and to enforce our terms; and`,
            `to a buyer or successor in connection with a merger, acquisition, financing or sale of all or part of our business, in which case the information remains subject to the commitments in this policy or we will notify you of any change.`,
          ],
        },
      ],
    },
    {
      id: "cookies",
      number: "6",
      title: "Cookies and Similar Technologies",
      blocks: [
        {
          kind: "clause",
          number: "6.1",
          heading: "Session cookie",
          text: `When you sign in, we set one strictly necessary session cookie. It keeps you signed in and lets our server recognize your requests. It cannot be read by scripts on the page, and it is removed when you sign out or when the session expires.`,
        },
        {
          kind: "clause",
          number: "6.2",
          heading: "Sign-in storage",
          text: `Our identity provider's sign-in software also keeps a record of your signed-in state in your browser's storage. This too is strictly necessary to provide the Service you asked for.`,
        },
        {
          kind: "clause",
          number: "6.3",
          heading: "No advertising cookies",
          text: `We do not use advertising cookies or cross-site tracking technologies. If we ever add optional cookies, such as for analytics, we will update this policy first and, where the law requires, ask for your consent.`,
        },
        {
          kind: "clause",
          number: "6.4",
          heading: "Embedded videos",
          text: `If our site shows a video hosted by a third party, the video player loads only after you choose to play it. From then on, that provider may collect information and set cookies under its own privacy policy.`,
        },
        {
          kind: "clause",
          number: "6.5",
          heading: "Your choices",
          text: `You can block or delete cookies in your browser settings, but if you block the session cookie or sign-in storage you will not be able to sign in.`,
        },
      ],
    },
    {
      id: "retention",
      number: "7",
      title: "How Long We Keep Information",
      blocks: [
        {
          kind: "clause",
          number: "7.1",
          heading: "While your account is open",
          text: `We keep account data and Customer Content for as long as your account is open, unless you delete items sooner.`,
        },
        {
          kind: "clause",
          number: "7.2",
          heading: "After your account closes",
          text: `After your account is closed, you may export your data for ${SECURITY_FACTS.exportWindowDays} days. When that export window ends, and in any event within ${SECURITY_FACTS.activeDeletionDays} days after closure, we delete account data and Customer Content from our active systems. Copies in our backups are deleted within ${SECURITY_FACTS.backupDeletionDays} days after closure.`,
        },
        {
          kind: "clause",
          number: "7.3",
          heading: "Records we must keep",
          text: `We keep billing and transaction records, and any other information the law requires us to retain, for the period required by tax, accounting and other laws. We keep that information protected and use it only for that purpose.`,
        },
        {
          kind: "clause",
          number: "7.4",
          heading: "Waitlist data",
          text: `We keep waitlist data until you ask us to remove it, until you accept an invitation and create an account (when it becomes part of your account data), or until we no longer need it to manage the waitlist, whichever comes first.`,
        },
        {
          kind: "clause",
          number: "7.5",
          heading: "Addresses we must not mail",
          text: `When you unsubscribe from a kind of news, when mail to your address bounces for good, or when you report our mail as spam, we record that so we do not mail you again. That record outlives the removal or erasure of your waitlist entry or account: from then on it holds only a keyed hash of your address (a code made from it with a secret key, from which the address cannot be read back), which lets us keep our promise without keeping the address.`,
        },
        {
          kind: "clause",
          number: "7.6",
          heading: "Usage data and correspondence",
          text: `We keep usage data and correspondence only as long as we need them for the purposes in section 3, such as security, troubleshooting and support, and then delete them or reduce them to aggregated form that no longer identifies you.`,
        },
      ],
    },
    {
      id: "security",
      number: "8",
      title: "How We Protect Information",
      blocks: [
        {
          kind: "clause",
          number: "8.1",
          heading: "Encryption",
          text: `We encrypt personal information in transit using ${SECURITY_FACTS.encryptionInTransit} and at rest using ${SECURITY_FACTS.encryptionAtRest}. Our security page describes these and our other safeguards in more detail.`,
          link: { words: "Our security page", href: "/security" },
        },
        {
          kind: "clause",
          number: "8.2",
          heading: "Other safeguards",
          text: `We also use other technical and organizational measures, including:`,
          items: [
            `role-based access on a least-privilege basis, with multi-factor authentication for administrative access;`,
            `24/7 security monitoring and audit logs of administrative actions;`,
            `a documented incident response process;`,
            `review of the security of the service providers we use; and`,
            `background checks and regular security training for our personnel.`,
          ],
        },
        {
          kind: "clause",
          number: "8.3",
          heading: "Passwords",
          text: `Passwords are handled by our identity provider and stored only as salted hashes. We never store your password in plain text, and we will never ask you for it by email.`,
        },
        {
          kind: "clause",
          number: "8.4",
          heading: "No system is perfect",
          text: `No method of transmission or storage is completely secure. If a security incident affects your personal information, we will notify you and the relevant authorities as the law requires.`,
        },
        {
          kind: "clause",
          number: "8.5",
          heading: "Your part",
          text: `Please use a strong password that you do not use elsewhere, keep your devices up to date, and protect the workbooks you store on your own systems.`,
        },
      ],
    },
    {
      id: "your-rights",
      number: "9",
      title: "Your Privacy Rights",
      blocks: [
        {
          kind: "clause",
          number: "9.1",
          heading: "Your rights",
          text: `Depending on where you live, you may have the right to:`,
          items: [
            `access the personal information we hold about you and receive a copy of it;`,
            `correct information that is inaccurate or incomplete;`,
            `delete your personal information;`,
            `receive your information in a portable, machine-readable format and have it transferred to another organization;`,
            `object to our processing, including processing based on our legitimate interests and processing for direct marketing;`,
            `restrict our processing in certain circumstances;`,
            `withdraw any consent you have given; and`,
            `not be treated differently for exercising any of these rights.`,
          ],
        },
        {
          kind: "clause",
          number: "9.2",
          heading: "How to make a request",
          text: `Use our privacy request form, email us at ${EMAIL}, ideally from the address on your account, or write to us at the address in section 13. The form confirms a request by a link we email to the address it names; for a request made another way, we will take reasonable steps to verify your identity before acting on it. You may use an authorized agent where the law allows; we may ask the agent for proof of authority and ask you to confirm your identity.`,
          link: { words: "our privacy request form", href: "/privacy-request" },
        },
        {
          kind: "clause",
          number: "9.3",
          heading: "When we respond",
          text: `We respond to verified requests within ${SECURITY_FACTS.privacyResponseDays} days of receipt. Where the law permits, for example under the California Consumer Privacy Act, we may extend that period by a further ${SECURITY_FACTS.privacyResponseDays} days when reasonably necessary, and we will tell you of the extension and the reason within the first ${SECURITY_FACTS.privacyResponseDays} days. Where a law requires a shorter deadline, we meet it: we respond within ${SECURITY_FACTS.privacyShortestResponseDays} days, or within one month of receipt for requests under the GDPR or UK GDPR if that is sooner, subject to any extension that law allows for complex or numerous requests, which we will tell you about within that first period.`,
        },
        {
          kind: "clause",
          number: "9.4",
          heading: "Appeals and complaints",
          text: `If we decline your request, we will explain why. Where your state's law provides for it, you may appeal by replying to our decision, and we will answer within the period that law sets; if you remain unsatisfied, you may contact your state attorney general. If you are in the European Economic Area, the United Kingdom or Switzerland, you may also complain to your data protection authority.`,
        },
        {
          kind: "clause",
          number: "9.5",
          heading: "Requests about Customer Content",
          text: `Where we hold your information only as a processor for one of our customers, we will refer your request to that customer and help it respond, as described in section 1.3.`,
        },
        {
          kind: "clause",
          number: "9.6",
          heading: "Marketing emails",
          text: `You can stop receiving marketing emails at any time by using the unsubscribe link in them. We will still send you messages about your account and the Service.`,
        },
      ],
    },
    {
      id: "international-transfers",
      number: "10",
      title: "International Data Transfers",
      blocks: [
        {
          kind: "clause",
          number: "10.1",
          heading: "Where we process information",
          text: `We are based in the United States. Personal information is processed in the United States and in other countries where we or our sub-processors operate, whose data protection laws may differ from those where you live.`,
        },
        {
          kind: "clause",
          number: "10.2",
          heading: "Safeguards",
          text: `When we transfer personal information from the European Economic Area, the United Kingdom or Switzerland to a country that has not been found to provide an adequate level of protection, we rely on the Standard Contractual Clauses approved by the European Commission, together with the United Kingdom and Swiss addenda or equivalents, or on another lawful transfer mechanism. For Customer Content, the transfer terms in our Data Processing Addendum apply.`,
        },
        {
          kind: "clause",
          number: "10.3",
          heading: "Copies",
          text: `You may ask us for a copy of the safeguards we rely on by emailing ${EMAIL}.`,
        },
      ],
    },
    {
      id: "children",
      number: "11",
      title: "Children's Privacy",
      blocks: [
        {
          kind: "clause",
          number: "11.1",
          heading: "Not for children",
          text: `The Service is not directed to children and is not for anyone under 13. We do not knowingly collect personal information from children under 13. If we learn that we have done so, we will delete it promptly.`,
        },
        {
          kind: "clause",
          number: "11.2",
          heading: "Adults only",
          text: `You must be at least 18 years old to join the waitlist or create an account. If you believe that someone under 18 has given us personal information, please contact us at ${EMAIL}.`,
        },
        {
          kind: "clause",
          number: "11.3",
          heading: "Information in Customer Content",
          text: `Customer Content may contain information about minors, such as dependants listed in tax records. We process that information only as a processor for our customer, as described in section 1.2.`,
        },
      ],
    },
    {
      id: "changes",
      number: "12",
      title: "Changes to This Policy",
      blocks: [
        {
          kind: "clause",
          number: "12.1",
          heading: "Updates",
          text: `We may update this policy from time to time. The date at the top shows when the current version took effect.`,
        },
        {
          kind: "clause",
          number: "12.2",
          heading: "Material changes",
          text: `If we make a material change, we will give you at least 30 days' notice before it takes effect, by email to the address on your account or by a notice in the Service. Where the law requires your consent to a change, we will ask for it.`,
        },
      ],
    },
    {
      id: "contact",
      number: "13",
      title: "Contact Us",
      blocks: [
        {
          kind: "clause",
          number: "13.1",
          heading: "How to reach us",
          text: `For questions about this policy or to exercise your rights, email ${EMAIL} or write to ${POSTAL_ADDRESS}. We answer email during our support hours, ${SITE.supportHours}.`,
        },
      ],
    },
  ],
};
