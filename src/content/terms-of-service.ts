/**
 * Terms of Service, written for this product.
 * Every site fact (name, entity, email, address, support hours, date) comes from SITE.
 */
import type { LegalDocument } from "./legal-types.ts";
import { SECURITY_FACTS } from "./security-facts.ts";
import { postalAddress, SITE } from "./site.ts";

const NAME = SITE.name;
const ENTITY = SITE.legalEntity;
const EMAIL = SITE.contactEmail;
const POSTAL_ADDRESS = postalAddress(ENTITY);

export const TERMS_OF_SERVICE: LegalDocument = {
  title: "Terms of Service",
  effectiveLine: `Effective ${SITE.legalEffectiveDate}`,
  preamble: [
    {
      kind: "paragraph",
      text: `These Terms of Service (the "Terms") are a binding agreement between you and ${ENTITY} ("${NAME}", "we", "us" or "our"). They govern your access to and use of the ${NAME} website, web application, Microsoft Excel and Microsoft Office add-in, AI agents and related services (together, the "Service").`,
    },
    {
      kind: "paragraph",
      text: `If you use the Service for a company, accounting firm or other organization, "you" means that organization as well as you personally, and you confirm that you have the authority to accept these Terms on its behalf.`,
    },
    {
      kind: "paragraph",
      text: `Please read section 6 with particular care. ${NAME} prepares drafts for your review. It does not give accounting, tax or legal advice, and you remain responsible for every workpaper, filing and sign-off you make with its help. Sections 14 and 15 disclaim warranties and limit each party's liability.`,
    },
  ],
  sections: [
    {
      id: "acceptance",
      number: "1",
      title: "Acceptance of These Terms",
      blocks: [
        {
          kind: "clause",
          number: "1.1",
          heading: "Agreement",
          text: `By joining the waitlist, creating an account, installing the add-in, starting a free trial, buying a subscription or otherwise using the Service, you agree to these Terms. If you do not agree, do not use the Service.`,
        },
        {
          kind: "clause",
          number: "1.2",
          heading: "Related documents",
          text: `Our Privacy Policy explains how we handle personal information. Where Customer Content includes personal data that we process on your behalf, our Data Processing Addendum also applies and forms part of these Terms. If you have signed an order form or other written agreement with us, that document controls where it conflicts with these Terms.`,
        },
        {
          kind: "clause",
          number: "1.3",
          heading: "Electronic communications",
          text: `You agree that we may provide agreements, notices and other communications to you electronically, by email to the address on your account or by notice in the Service, and that these satisfy any legal requirement that such communications be in writing.`,
        },
      ],
    },
    {
      id: "eligibility",
      number: "2",
      title: "Eligibility",
      blocks: [
        {
          kind: "clause",
          number: "2.1",
          heading: "Minimum age",
          text: `You must be at least 18 years old and able to form a binding contract to join the waitlist, create an account or use the Service.`,
        },
        {
          kind: "clause",
          number: "2.2",
          heading: "Business use",
          text: `The Service is designed for accountants, tax preparers, finance teams and other professionals. You may use it only for business or professional purposes and not as a consumer for personal, family or household purposes.`,
        },
        {
          kind: "clause",
          number: "2.3",
          heading: "Legal restrictions",
          text: `You may not use the Service if you are barred from doing so under the laws of the United States or any other applicable jurisdiction, including if you are the subject of trade sanctions or are located in a country subject to a comprehensive United States embargo.`,
        },
      ],
    },
    {
      id: "beta-and-waitlist",
      number: "3",
      title: "Private Beta and Waitlist",
      blocks: [
        {
          kind: "clause",
          number: "3.1",
          heading: "Access by invitation",
          text: `The Service is currently offered as a private beta. Access is granted by invitation from our waitlist, in the order and at the times we choose. Joining the waitlist does not guarantee that you will receive access or when.`,
        },
        {
          kind: "clause",
          number: "3.2",
          heading: "Nature of the beta",
          text: `Because the Service is in beta, features may change, be limited, be interrupted or be withdrawn, and the Service may contain errors. We will try to give reasonable advance notice of significant changes, but we may act without notice where security, legal compliance or the integrity of the Service requires it.`,
        },
        {
          kind: "clause",
          number: "3.3",
          heading: "Waitlist information",
          text: `When you join the waitlist, we use the information you provide to manage the waitlist and to contact you about access, as described in our Privacy Policy.`,
        },
        {
          kind: "clause",
          number: "3.4",
          heading: "Beta information",
          text: `Features, pricing and other information about the beta that we have not made public are our Confidential Information under section 12.`,
        },
      ],
    },
    {
      id: "accounts-and-security",
      number: "4",
      title: "Accounts and Security",
      blocks: [
        {
          kind: "clause",
          number: "4.1",
          heading: "Accurate information",
          text: `You must give accurate and complete information when you create an account and keep it up to date.`,
        },
        {
          kind: "clause",
          number: "4.2",
          heading: "Credentials",
          text: `Sign-in is handled by a third-party identity provider, and we never receive or store your password in plain text. You are responsible for keeping your password confidential, for choosing a password that is not used elsewhere, and for all activity that takes place under your account.`,
        },
        {
          kind: "clause",
          number: "4.3",
          heading: "One person per login",
          text: `Each login is for one named individual. You may not share your login with others. If your organization has several users, each must have their own account, and your organization is responsible for the acts and omissions of its users.`,
        },
        {
          kind: "clause",
          number: "4.4",
          heading: "Unauthorized use",
          text: `You must notify us promptly at ${EMAIL} if you suspect that your account or credentials have been used without permission. We may require you to reset your password or may temporarily lock the account to protect you and the Service.`,
        },
      ],
    },
    {
      id: "service-and-add-in",
      number: "5",
      title: "The Service and the Microsoft Office Add-in",
      blocks: [
        {
          kind: "clause",
          number: "5.1",
          heading: "What the Service does",
          text: `${NAME} provides AI agents that work inside Microsoft Excel to help prepare workpapers, cross-reference figures to their sources, reconcile balances, propose adjustments and prepare draft tax filings, for your review.`,
        },
        {
          kind: "clause",
          number: "5.2",
          heading: "The add-in",
          text: `Parts of the Service are delivered as a Microsoft Office add-in. To use it you need a supported version of Microsoft Excel and any Microsoft account or licence that Microsoft requires, which you obtain separately. Your use of Microsoft products is governed by your agreement with Microsoft, and we are not responsible for those products.`,
        },
        {
          kind: "clause",
          number: "5.3",
          heading: "How the add-in uses your workbooks",
          text: `When you ask an agent to perform a task, the add-in reads the workbook content needed for that task, sends it to our servers and to the AI model providers we engage for processing, and writes the results back into your workbook. The add-in acts only on workbooks in which you run it.`,
        },
        {
          kind: "clause",
          number: "5.4",
          heading: "Updates",
          text: `We may update the Service and the add-in from time to time, and some updates install automatically. Older versions may stop working once an update is released.`,
        },
        {
          kind: "clause",
          number: "5.5",
          heading: "No affiliation",
          text: `Microsoft, Excel and Office are trademarks of Microsoft Corporation. ${NAME} is not affiliated with, sponsored by or endorsed by Microsoft.`,
        },
      ],
    },
    {
      id: "ai-output",
      number: "6",
      title: "AI Output and Your Professional Responsibility",
      blocks: [
        {
          kind: "clause",
          number: "6.1",
          heading: "What AI Output is",
          text: `"AI Output" means everything the Service's AI agents generate for you, including workpapers, cross-references, reconciliations, proposed adjustments, draft tax forms, calculations and explanations. AI Output is produced by machine learning systems and may be wrong, incomplete, inconsistent or out of date, even when it appears confident or well supported.`,
        },
        {
          kind: "clause",
          number: "6.2",
          heading: "You must review it",
          text: `You must review all AI Output and check it against the underlying source documents and the applicable law before you rely on it, deliver it to a client, file it with any authority or sign off on it.`,
        },
        {
          kind: "clause",
          number: "6.3",
          heading: "You stay responsible",
          text: `You remain solely responsible for your professional judgement and for all work you prepare, deliver, file or sign with the help of the Service, including:`,
          items: [
            `the accuracy and completeness of every workpaper, financial statement, return, filing and report;`,
            `every signature, review and sign-off given by you or your staff;`,
            `compliance with the professional standards, licensing requirements, ethical rules and confidentiality duties that apply to you, including any rules on the use and disclosure of taxpayer information; and`,
            `meeting deadlines and the requirements of tax and other authorities.`,
          ],
        },
        {
          kind: "clause",
          number: "6.4",
          heading: "No professional advice",
          text: `The Service does not provide accounting, tax, audit, legal or financial advice. We do not act as your accountant, tax return preparer or adviser, or as the accountant, preparer or adviser of your clients, and using the Service creates no such relationship.`,
        },
        {
          kind: "clause",
          number: "6.5",
          heading: "Estimates",
          text: `Statements about time savings or efficiency, such as a reduction in preparation time, describe typical or possible results. They are not promises about the results you will achieve.`,
        },
      ],
    },
    {
      id: "customer-content",
      number: "7",
      title: "Your Content",
      blocks: [
        {
          kind: "clause",
          number: "7.1",
          heading: "Customer Content",
          text: `"Customer Content" means the workbooks, files, data, prompts and instructions that you or your users submit to the Service or process with it in Excel, together with the AI Output generated for you.`,
        },
        {
          kind: "clause",
          number: "7.2",
          heading: "Ownership",
          text: `As between you and us, you own your Customer Content, including AI Output to the extent the law allows ownership of it. We claim no ownership of Customer Content.`,
        },
        {
          kind: "clause",
          number: "7.3",
          heading: "Licence to us",
          text: `You grant us a worldwide, non-exclusive, royalty-free licence to host, copy, transmit, process and display Customer Content only as needed to provide, secure and support the Service for you, to prevent or address technical, security or abuse problems, and to comply with the law. This licence ends when the Customer Content is deleted under section 11.`,
        },
        {
          kind: "clause",
          number: "7.4",
          heading: "No model training",
          text: `We do not use Customer Content to train or fine-tune AI models, whether our own or a third party's, unless you give us your express prior consent.`,
        },
        {
          kind: "clause",
          number: "7.5",
          heading: "Your responsibilities",
          text: `You are responsible for your Customer Content and confirm that you have all rights, consents and authorizations, including any required from your clients, and have given all notices that are needed for us to process it as these Terms describe.`,
        },
        {
          kind: "clause",
          number: "7.6",
          heading: "Keep your own copies",
          text: `The Service is not an archive or a system of record. Your workbooks remain in your own storage, and you should keep your own copies of all Customer Content and records you are required to retain.`,
        },
      ],
    },
    {
      id: "acceptable-use",
      number: "8",
      title: "Acceptable Use",
      blocks: [
        {
          kind: "clause",
          number: "8.1",
          heading: "Prohibited conduct",
          text: `You must not, and must not allow anyone else to:`,
          items: [
            `use the Service in violation of any law or regulation, including tax, privacy, securities, sanctions and export control laws;`,
            `prepare or submit false or fraudulent returns, records or statements, or use the Service to evade tax or to mislead any tax authority, auditor, lender or client;`,
            `upload content that you have no right to use, or content containing malware or other harmful code;`,
            `probe, scan or test the vulnerability of the Service, or bypass any authentication, security, rate or usage limit;`,
            `attempt to obtain another customer's data, or to make the AI agents reveal their system instructions or data belonging to others;`,
            `copy, modify, reverse engineer, decompile or disassemble the Service or the add-in, except to the extent the law expressly permits despite this restriction;`,
            `resell, sublicense, rent or provide the Service to third parties, or share accounts, unless we have agreed in writing;`,
            `use the Service or AI Output to build or train a competing product or model; or`,
            `interfere with or place an unreasonable load on the Service, including by scraping or automated access outside the features we provide.`,
          ],
        },
        {
          kind: "clause",
          number: "8.2",
          heading: "Enforcement",
          text: `We may investigate suspected violations of this section, remove or disable access to content that violates it, and suspend or terminate access under section 11.`,
        },
      ],
    },
    {
      id: "trials-and-subscriptions",
      number: "9",
      title: "Free Trials and Subscriptions",
      blocks: [
        {
          kind: "clause",
          number: "9.1",
          heading: "Free trials",
          text: `We may offer a free trial of a paid plan. The length of the trial is shown when you start it; for example, trials may last 7, 14 or 30 days. Unless we agree otherwise, each customer may use one free trial.`,
        },
        {
          kind: "clause",
          number: "9.2",
          heading: "Automatic conversion",
          text: `When you start a trial, we show you the date on which it ends and the price that will apply afterwards. Unless you cancel before the trial ends, the trial converts automatically into a paid subscription to the plan you selected, and we charge your payment method the price shown. Where the law requires it, we will remind you before the first charge.`,
        },
        {
          kind: "clause",
          number: "9.3",
          heading: "Subscriptions",
          text: `Subscriptions are billed in advance for the billing period you choose, such as monthly or annually, and begin when the first paid period starts.`,
        },
        {
          kind: "clause",
          number: "9.4",
          heading: "Automatic renewal",
          text: `Each subscription renews automatically at the end of each billing period for another period of the same length, at the price then in effect, until you cancel it. By subscribing, you authorize us and our payment processor to charge your payment method at the start of each billing period.`,
        },
        {
          kind: "clause",
          number: "9.5",
          heading: "Cancellation",
          text: `You may cancel a trial or subscription at any time in your account settings or by emailing ${EMAIL}. Cancellation of a subscription takes effect at the end of the current billing period; you keep access until then, and no further charges are made. Except as stated in section 10.5 or required by law, we do not refund fees for a partly used billing period.`,
        },
        {
          kind: "clause",
          number: "9.6",
          heading: "Price changes",
          text: `We may change our prices. We will give you at least 30 days' notice by email or in the Service before any price increase takes effect. The new price applies from your first renewal after the notice period ends, and you may cancel before then if you do not accept it.`,
        },
        {
          kind: "clause",
          number: "9.7",
          heading: "Changing plans",
          text: `If you move to a different plan, we will tell you when the change takes effect and how any charge or credit is calculated before you confirm it.`,
        },
      ],
    },
    {
      id: "fees-and-payment",
      number: "10",
      title: "Fees, Payment and Refunds",
      blocks: [
        {
          kind: "clause",
          number: "10.1",
          heading: "Fees",
          text: `You agree to pay the fees shown when you subscribe or set out in your order form. Fees are stated in US dollars and exclude taxes.`,
        },
        {
          kind: "clause",
          number: "10.2",
          heading: "Card payments",
          text: `Card payments are processed by a third-party payment processor. You provide your card details to that processor, which handles them under its own terms and privacy policy; we do not receive or store your full card number. You must keep your payment information current.`,
        },
        {
          kind: "clause",
          number: "10.3",
          heading: "Failed payments",
          text: `If a charge fails, we or our payment processor may retry it and will ask you to update your payment method. If the amount remains unpaid, we may suspend the Service under section 11.`,
        },
        {
          kind: "clause",
          number: "10.4",
          heading: "Taxes",
          text: `You are responsible for all sales, use, value added, goods and services and similar taxes on your purchases, other than taxes on our net income. Where we are required to collect such taxes, we will add them to your invoice or charge.`,
        },
        {
          kind: "clause",
          number: "10.5",
          heading: "Refund after a trial",
          text: `If you are charged when a free trial converts into a paid subscription and you did not mean to continue, you may ask for a refund by emailing ${EMAIL} within 7 days after that charge. We will refund that charge in full and end the subscription. Otherwise, fees are non-refundable except where these Terms provide for a refund or the law requires one.`,
        },
        {
          kind: "clause",
          number: "10.6",
          heading: "Invoiced enterprise customers",
          text: `If we agree to invoice you instead of charging a card, for example under an enterprise order form, the following terms apply unless your order form says otherwise:`,
          items: [
            `invoices are payable on Net 30 terms, meaning within 30 days after the invoice date;`,
            `amounts not paid when due accrue interest at 1.5% per month, or at the highest rate the law permits if that is lower, from the due date until paid;`,
            `if any amount remains unpaid 30 days after its due date, we may suspend the Service, after giving you written notice, until all overdue amounts are paid; and`,
            `you must tell us in writing before the due date if you dispute an invoice in good faith; you must pay the undisputed portion on time, and no interest accrues on the disputed portion while we work together to resolve the dispute.`,
          ],
        },
      ],
    },
    {
      id: "suspension-and-termination",
      number: "11",
      title: "Suspension, Termination and Your Data",
      blocks: [
        {
          kind: "clause",
          number: "11.1",
          heading: "Ending by you",
          text: `You may cancel your subscription under section 9.5 and may close your account at any time.`,
        },
        {
          kind: "clause",
          number: "11.2",
          heading: "Suspension",
          text: `We may suspend all or part of your access to the Service if:`,
          items: [
            `you breach section 8, or your use of the Service poses a security risk or could harm us, other users or third parties;`,
            `payment is overdue, including where a card charge cannot be collected or an invoiced amount remains unpaid 30 days after its due date; or`,
            `suspension is required by law or by an order of a court or authority.`,
          ],
        },
        {
          kind: "clause",
          number: "11.3",
          heading: "Notice and restoration",
          text: `We will give you notice of a suspension in advance where practicable, and otherwise as soon as we can. We will limit a suspension to what is reasonably necessary and restore access promptly once the cause has been resolved.`,
        },
        {
          kind: "clause",
          number: "11.4",
          heading: "Termination for breach or non-payment",
          text: `Either party may terminate these Terms by written notice if the other party materially breaches them, including by failing to pay amounts due, and, where the breach can be cured, does not cure it within 15 days after receiving written notice describing it. A material breach that cannot be cured allows termination on written notice without a cure period.`,
        },
        {
          kind: "clause",
          number: "11.5",
          heading: "Ending the beta or the Service",
          text: `We may discontinue the beta or the Service by giving you at least 30 days' notice. If we do, we will refund any prepaid fees for the period after the discontinuation takes effect.`,
        },
        {
          kind: "clause",
          number: "11.6",
          heading: "Effect of termination",
          text: `When these Terms end, your right to use the Service ends and any amounts already owed become payable. If you terminate because of our uncured material breach, we will refund any prepaid fees for the period after termination. If we terminate because of your breach, no refund is due.`,
        },
        {
          kind: "clause",
          number: "11.7",
          heading: "Data export",
          text: `For ${SECURITY_FACTS.exportWindowDays} days after termination, you may export your Customer Content using the export features of the Service or by asking us at ${EMAIL}, unless the law prohibits us from making it available.`,
        },
        {
          kind: "clause",
          number: "11.8",
          heading: "Deletion",
          text: `When the export period ends, and in any event within ${SECURITY_FACTS.activeDeletionDays} days after termination, we delete your Customer Content from our active systems. Copies held in our backups are deleted within ${SECURITY_FACTS.backupDeletionDays} days after termination. We may keep information for longer only where the law requires it, and then only for that purpose and protected under section 12.`,
        },
        {
          kind: "clause",
          number: "11.9",
          heading: "Survival",
          text: `Sections 6, 7.2, 10, 11.6 to 11.9 and 12 to 17, and any other provision that by its nature should continue, survive the end of these Terms.`,
        },
      ],
    },
    {
      id: "confidentiality",
      number: "12",
      title: "Confidentiality",
      blocks: [
        {
          kind: "clause",
          number: "12.1",
          heading: "Meaning",
          text: `"Confidential Information" means non-public information that one party discloses to the other in connection with the Service and that is marked as confidential or that a reasonable person would understand to be confidential. Your Customer Content is your Confidential Information. Our non-public pricing, product plans, beta features and security documentation are our Confidential Information.`,
        },
        {
          kind: "clause",
          number: "12.2",
          heading: "Obligations",
          text: `The receiving party will use the other party's Confidential Information only to perform its obligations and exercise its rights under these Terms, will protect it with at least reasonable care, and will disclose it only to its employees, contractors and service providers who need it for those purposes and are bound by confidentiality obligations at least as protective as these.`,
        },
        {
          kind: "clause",
          number: "12.3",
          heading: "Exclusions",
          text: `These obligations do not apply to information that:`,
          items: [
            `is or becomes public through no fault of the receiving party;`,
            `the receiving party already knew without a duty of confidentiality;`,
            `the receiving party receives lawfully from a third party without a duty of confidentiality; or`,
            `the receiving party develops independently without using the other party's Confidential Information.`,
          ],
        },
        {
          kind: "clause",
          number: "12.4",
          heading: "Required disclosure",
          text: `If the law or a court or authority requires the receiving party to disclose Confidential Information, it may do so, but where legally permitted it will first give the other party prompt notice and reasonable help to seek a protective order or other remedy, and it will disclose only what is required.`,
        },
      ],
    },
    {
      id: "intellectual-property",
      number: "13",
      title: "Intellectual Property",
      blocks: [
        {
          kind: "clause",
          number: "13.1",
          heading: "Our rights",
          text: `We and our licensors own the Service, the add-in, our software, documentation, designs and trademarks, and all improvements to them. Except for the rights expressly granted in these Terms, no rights are transferred to you.`,
        },
        {
          kind: "clause",
          number: "13.2",
          heading: "Your right to use the Service",
          text: `Subject to these Terms and payment of the applicable fees, we grant you a limited, non-exclusive, non-transferable, non-sublicensable right, during your trial or subscription, to access and use the Service and to install and use the add-in for your internal business purposes.`,
        },
        {
          kind: "clause",
          number: "13.3",
          heading: "Feedback",
          text: `If you send us suggestions or other feedback, we may use it without restriction or payment to you. Feedback does not include your Customer Content.`,
        },
        {
          kind: "clause",
          number: "13.4",
          heading: "Usage data",
          text: `We may collect technical and usage information about how the Service is used, and may use it to operate, secure and improve the Service, and in aggregated or de-identified form for any lawful purpose, provided that it does not identify you, your users or your clients. Usage information does not include Customer Content.`,
        },
      ],
    },
    {
      id: "disclaimer-of-warranties",
      number: "14",
      title: "Disclaimer of Warranties",
      blocks: [
        {
          kind: "clause",
          number: "14.1",
          heading: "As is",
          text: `TO THE FULLEST EXTENT THE LAW PERMITS, THE SERVICE, THE ADD-IN AND ALL AI OUTPUT ARE PROVIDED "AS IS" AND "AS AVAILABLE", AND WE DISCLAIM ALL WARRANTIES, WHETHER EXPRESS, IMPLIED OR STATUTORY, INCLUDING ANY IMPLIED WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE, TITLE AND NON-INFRINGEMENT, AND ANY WARRANTIES ARISING FROM A COURSE OF DEALING OR USAGE OF TRADE.`,
        },
        {
          kind: "clause",
          number: "14.2",
          heading: "No guarantee of results",
          text: `In particular, we do not warrant that the Service will be uninterrupted, error-free or free of harmful components, that AI Output will be accurate, complete or suitable for any filing or purpose, or that any return or filing prepared with the Service will be accepted by a tax or other authority.`,
        },
        {
          kind: "clause",
          number: "14.3",
          heading: "Beta features",
          text: `Beta features are provided for evaluation and may not perform as expected. You should not rely on them as your only means of meeting a deadline or obligation.`,
        },
      ],
    },
    {
      id: "limitation-of-liability",
      number: "15",
      title: "Limitation of Liability",
      blocks: [
        {
          kind: "clause",
          number: "15.1",
          heading: "Excluded damages",
          text: `TO THE FULLEST EXTENT THE LAW PERMITS, NEITHER PARTY WILL BE LIABLE FOR ANY INDIRECT, INCIDENTAL, SPECIAL, CONSEQUENTIAL, EXEMPLARY OR PUNITIVE DAMAGES, OR FOR ANY LOSS OF PROFITS, REVENUE, GOODWILL OR DATA, ARISING OUT OF OR RELATING TO THESE TERMS OR THE SERVICE, EVEN IF IT WAS ADVISED THAT SUCH DAMAGES WERE POSSIBLE. WE ARE NOT LIABLE FOR ANY TAX, PENALTY, INTEREST, FINE OR ASSESSMENT IMPOSED ON YOU OR YOUR CLIENTS BY ANY AUTHORITY.`,
        },
        {
          kind: "clause",
          number: "15.2",
          heading: "Liability cap",
          text: `To the fullest extent the law permits, each party's total liability for all claims arising out of or relating to these Terms or the Service will not exceed the total fees you paid to us for the Service in the 12 months before the event giving rise to the liability, or $100 if you paid no fees in that period.`,
        },
        {
          kind: "clause",
          number: "15.3",
          heading: "Exceptions",
          text: `Sections 15.1 and 15.2 do not limit your obligation to pay fees, your obligations under section 16, your liability for breach of section 8, or any liability that cannot be limited or excluded under applicable law.`,
        },
        {
          kind: "clause",
          number: "15.4",
          heading: "Allocation of risk",
          text: `These limitations apply to every theory of liability, including contract, tort (including negligence) and statute, and apply even if a limited remedy fails of its essential purpose. They reflect an agreed allocation of risk that is reflected in our prices.`,
        },
      ],
    },
    {
      id: "indemnification",
      number: "16",
      title: "Indemnification",
      blocks: [
        {
          kind: "clause",
          number: "16.1",
          heading: "Your indemnity",
          text: `You will defend ${ENTITY} and its officers, directors, employees and agents against any claim, demand or proceeding brought by a third party, including any of your clients or any authority, and will pay the damages, fines, settlements and reasonable costs, including attorneys' fees, that result, to the extent the claim arises from:`,
          items: [
            `your Customer Content, including a claim that we were not authorized to process it;`,
            `your use of AI Output, including any return, filing, report or advice you prepare, deliver or sign; or`,
            `your breach of these Terms or of the law.`,
          ],
        },
        {
          kind: "clause",
          number: "16.2",
          heading: "Procedure",
          text: `We will notify you promptly of any claim covered by section 16.1, give you control of its defence and settlement, and cooperate reasonably at your expense. You may not settle a claim in a way that admits fault by us or imposes obligations on us without our prior written consent, which we will not withhold unreasonably. We may take part in the defence with our own counsel at our own cost.`,
        },
      ],
    },
    {
      id: "changes-and-governing-law",
      number: "17",
      title: "Changes, Governing Law and General Terms",
      blocks: [
        {
          kind: "clause",
          number: "17.1",
          heading: "Changes to these Terms",
          text: `We may change these Terms from time to time. We will give you at least 30 days' notice, by email to the address on your account or by notice in the Service, before any change takes effect, and the date at the top of these Terms will show when the current version took effect. If you do not agree to a change, you may cancel before it takes effect. If you keep using the Service after that date, you accept the revised Terms.`,
        },
        {
          kind: "clause",
          number: "17.2",
          heading: "Governing law",
          text: `These Terms, and any dispute arising out of or relating to them or to the Service, are governed by the laws of the State of Delaware, without regard to its conflict of laws rules. The United Nations Convention on Contracts for the International Sale of Goods does not apply.`,
        },
        {
          kind: "clause",
          number: "17.3",
          heading: "Courts",
          text: `The state and federal courts located in the State of Delaware have exclusive jurisdiction over any such dispute, and each party consents to their personal jurisdiction and venue. Either party may nevertheless seek urgent injunctive relief in any court of competent jurisdiction to protect its intellectual property or Confidential Information.`,
        },
        {
          kind: "clause",
          number: "17.4",
          heading: "Assignment",
          text: `You may not assign or transfer these Terms without our prior written consent. We may assign them, with notice to you, to an affiliate or to a successor in a merger, acquisition or sale of all or substantially all of the assets of our business.`,
        },
        {
          kind: "clause",
          number: "17.5",
          heading: "Force majeure",
          text: `Neither party is liable for a delay or failure to perform, other than a failure to pay, caused by events beyond its reasonable control, such as natural disasters, war, terrorism, labour disputes, government action, or failures of public utilities, networks or third-party hosting.`,
        },
        {
          kind: "clause",
          number: "17.6",
          heading: "Notices",
          text: `We send notices to the email address on your account. You send notices to us by email to ${EMAIL}, and legal notices also by post to ${POSTAL_ADDRESS}.`,
        },
        {
          kind: "clause",
          number: "17.7",
          heading: "Entire agreement",
          text: `These Terms, together with the documents referred to in section 1.2, are the entire agreement between the parties about the Service and replace any prior understanding on that subject. If any provision is found unenforceable, it will be enforced to the maximum extent possible and the rest will remain in effect. A failure to enforce a provision is not a waiver. The parties are independent contractors, and these Terms create no third-party beneficiary rights.`,
        },
      ],
    },
    {
      id: "support-and-contact",
      number: "18",
      title: "Support and Contact",
      blocks: [
        {
          kind: "clause",
          number: "18.1",
          heading: "Support",
          text: `We provide support by email at ${EMAIL} during our support hours, ${SITE.supportHours}. Requests received outside those hours are handled on the next business day. Unless your order form says otherwise, we do not guarantee a specific response or resolution time.`,
        },
        {
          kind: "clause",
          number: "18.2",
          heading: "Contact",
          text: `Questions about these Terms can be sent to ${EMAIL} or by post to ${POSTAL_ADDRESS}.`,
        },
      ],
    },
  ],
};
