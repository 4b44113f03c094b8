/**
 * Data Processing Addendum, written for this product. One source for both the /dpa page and the
 * .docx download: sections 1 to 12, the signature page and Annex A. Every site fact comes from
 * SITE.
 */
import type { DpaDocument } from "./legal-types.ts";
import { SECURITY_FACTS } from "./security-facts.ts";
import { postalAddress, SITE } from "./site.ts";
import { categoryItems, OBJECTION_DAYS, SUBPROCESSOR_NOTICE_DAYS } from "./subprocessors.ts";

const NAME = SITE.name;
const ENTITY = SITE.legalEntity;
const EMAIL = SITE.contactEmail;
const POSTAL_ADDRESS = postalAddress();
const SIGNATURE_FIELDS = ["Signature", "Name", "Title", "Date"] as const;
const { encryptionInTransit: TLS, encryptionAtRest: AES } = SECURITY_FACTS;
const EXPORT_DAYS = SECURITY_FACTS.exportWindowDays;
const ACTIVE_DAYS = SECURITY_FACTS.activeDeletionDays;
const BACKUP_DAYS = SECURITY_FACTS.backupDeletionDays;
const INCIDENT_HOURS = SECURITY_FACTS.incidentNoticeHours;

export const DPA: DpaDocument = {
  title: "Data Processing Addendum",
  effectiveLine: "Effective on the date of execution",
  partiesLine: `This Data Processing Addendum is entered into between ${ENTITY} ("Provider"), acting as Processor, and the customer entity that has agreed to the ${NAME} Terms of Service ("Customer"), acting as Controller.`,
  effectiveDate: "the date of execution by both parties",
  preamble: [
    {
      kind: "paragraph",
      text: `This Data Processing Addendum (the "DPA") forms part of the Agreement between Customer and Provider. It sets out the terms on which Provider processes Customer Personal Data on behalf of Customer when providing the Services, and it reflects the parties' agreement on the processing of that data in accordance with the Data Protection Laws.`,
    },
    {
      kind: "paragraph",
      text: `The DPA takes effect on the date on which both parties have executed it, by signing the signature page below or by another method of execution the parties agree. It consists of sections 1 to 12, the signature page and Annex A.`,
    },
  ],
  sections: [
    {
      id: "definitions",
      number: "1",
      title: "Definitions and Scope",
      blocks: [
        {
          kind: "clause",
          number: "1.1",
          heading: "Definitions",
          text: `In this DPA, the capitalized terms below have the meanings given to them. Terms such as "processing", "personal data breach" and "supervisory authority" have the meanings given in the Data Protection Laws, and other capitalized terms not defined here have the meanings given in the Agreement.`,
        },
        {
          kind: "definition",
          term: "Controller",
          text: `The natural or legal person that, alone or jointly with others, determines the purposes and means of the processing of Personal Data, including a "business" under the CCPA. Under this DPA, Customer is the Controller, subject to section 1.4.`,
        },
        {
          kind: "definition",
          term: "Processor",
          text: `A natural or legal person that processes Personal Data on behalf of a Controller, including a "service provider" under the CCPA. Under this DPA, Provider is the Processor.`,
        },
        {
          kind: "definition",
          term: "Sub-processor",
          text: `Any third party, including any affiliate of Provider, that Provider engages to process Customer Personal Data on its behalf in providing the Services.`,
        },
        {
          kind: "definition",
          term: "Personal Data",
          text: `Any information relating to an identified or identifiable natural person, and any other information that is defined as "personal data", "personal information" or a similar term under the Data Protection Laws.`,
        },
        {
          kind: "definition",
          term: "Customer Personal Data",
          text: `Personal Data contained in Customer Content, or otherwise provided to Provider by or on behalf of Customer, that Provider processes on behalf of Customer in providing the Services. It does not include the data described in section 1.5.`,
        },
        {
          kind: "definition",
          term: "Customer Content",
          text: `The workbooks, files, data, prompts and instructions that Customer and its authorized users submit to the Services or process with them in Microsoft Excel, together with the output the Services generate for Customer.`,
        },
        {
          kind: "definition",
          term: "Data Subject",
          text: `The identified or identifiable natural person to whom Personal Data relates.`,
        },
        {
          kind: "definition",
          term: "Security Incident",
          text: `A breach of security leading to the accidental or unlawful destruction, loss or alteration of, or unauthorized disclosure of or access to, Customer Personal Data transmitted, stored or otherwise processed by Provider or its Sub-processors.`,
        },
        {
          kind: "definition",
          term: "Data Protection Laws",
          text: `All laws and regulations that apply to the processing of Customer Personal Data under the Agreement, including, where applicable, Regulation (EU) 2016/679 (the "GDPR"); the GDPR as it forms part of the law of the United Kingdom, together with the UK Data Protection Act 2018 (the "UK GDPR"); the Swiss Federal Act on Data Protection (the "FADP"); the California Consumer Privacy Act of 2018, as amended by the California Privacy Rights Act of 2020 (the "CCPA"); and the privacy laws of other US states, in each case as amended or replaced from time to time.`,
        },
        {
          kind: "definition",
          term: "Standard Contractual Clauses",
          text: `The standard contractual clauses for the transfer of personal data to third countries set out in the Annex to European Commission Implementing Decision (EU) 2021/914 of 4 June 2021, as amended or replaced from time to time.`,
        },
        {
          kind: "definition",
          term: "Services",
          text: `The services that Provider provides to Customer under the Agreement under the name ${NAME}, including the website, the web application, the Microsoft Excel and Microsoft Office add-in, the AI agents and related support.`,
        },
        {
          kind: "definition",
          term: "Agreement",
          text: `The ${NAME} Terms of Service, or any other written agreement between Customer and Provider that governs Customer's use of the Services, together with any order forms under it.`,
        },
        {
          kind: "clause",
          number: "1.2",
          heading: "Scope",
          text: `This DPA applies whenever Provider processes Customer Personal Data on behalf of Customer in providing the Services, regardless of where the processing takes place.`,
        },
        {
          kind: "clause",
          number: "1.3",
          heading: "Roles of the parties",
          text: `With respect to Customer Personal Data, Customer acts as Controller and Provider acts as Processor. Provider will act as a service provider under the CCPA and as a processor under the other Data Protection Laws.`,
        },
        {
          kind: "clause",
          number: "1.4",
          heading: "Customer acting for its own clients",
          text: `Where Customer processes Customer Personal Data as a processor on behalf of a third party, such as one of its own clients, Customer confirms that its instructions to Provider, including the appointment of Provider and its Sub-processors, have been authorized by that third party. In that case Provider acts as a sub-processor of Customer, and Customer remains Provider's sole point of contact.`,
        },
        {
          kind: "clause",
          number: "1.5",
          heading: "Data outside this DPA",
          text: `Provider processes the account, billing, waitlist and usage data of Customer and its users for its own purposes as a controller, as described in Provider's Privacy Policy. That processing is outside the scope of this DPA.`,
        },
      ],
    },
    {
      id: "details-of-processing",
      number: "2",
      title: "Details of Processing",
      blocks: [
        {
          kind: "clause",
          number: "2.1",
          heading: "Annex A",
          text: `The subject matter, duration, nature and purpose of the processing, the types of Customer Personal Data and the categories of Data Subjects are described in Annex A, which forms part of this DPA.`,
        },
        {
          kind: "clause",
          number: "2.2",
          heading: "Purpose limitation",
          text: `Provider will process Customer Personal Data only to provide, secure and support the Services in accordance with the Agreement and Customer's documented instructions, and for no other purpose.`,
        },
        {
          kind: "clause",
          number: "2.3",
          heading: "Customer's choice of data",
          text: `Customer determines which Customer Content it submits to or processes with the Services and therefore which Customer Personal Data Provider processes.`,
        },
        {
          kind: "clause",
          number: "2.4",
          heading: "CCPA commitments",
          text: `Provider will not sell or share Customer Personal Data, as those terms are defined in the CCPA; will not retain, use or disclose it for any purpose, including any commercial purpose, other than the business purposes specified in the Agreement and this DPA; will not retain, use or disclose it outside the direct business relationship between the parties; and will not combine it with Personal Data that Provider receives from or on behalf of any other person, except as the CCPA permits. Provider will notify Customer if it determines that it can no longer meet its obligations under the CCPA.`,
        },
        {
          kind: "clause",
          number: "2.5",
          heading: "No model training",
          text: `Provider will not use Customer Personal Data to train or fine-tune artificial intelligence models, whether its own or a third party's, without Customer's prior written consent, and will require its AI model providers not to use Customer Personal Data to train their models.`,
        },
      ],
    },
    {
      id: "customer-obligations",
      number: "3",
      title: "Customer's Obligations as Controller",
      blocks: [
        {
          kind: "clause",
          number: "3.1",
          heading: "Compliance",
          text: `Customer will comply with the Data Protection Laws in its use of the Services and in its processing of Customer Personal Data, including in the instructions it gives to Provider.`,
        },
        {
          kind: "clause",
          number: "3.2",
          heading: "Lawful basis and notices",
          text: `Customer is responsible for having a lawful basis for the processing of Customer Personal Data under this DPA and for giving all notices to, and obtaining all consents and authorizations from, Data Subjects and any other person that the Data Protection Laws or Customer's professional obligations require for Provider to process Customer Personal Data as the Agreement describes.`,
        },
        {
          kind: "clause",
          number: "3.3",
          heading: "Quality of data",
          text: `Customer is solely responsible for the accuracy, quality and legality of Customer Personal Data and for the means by which Customer acquired it.`,
        },
        {
          kind: "clause",
          number: "3.4",
          heading: "Lawful instructions",
          text: `Customer will ensure that its instructions comply with the Data Protection Laws and that following them will not cause Provider to breach the Data Protection Laws or any other law.`,
        },
        {
          kind: "clause",
          number: "3.5",
          heading: "Data minimization",
          text: `Customer will submit to the Services only the Customer Personal Data that is reasonably necessary for the tasks it asks the Services to perform. Customer will not submit special categories of personal data within the meaning of Article 9 of the GDPR, or data relating to criminal convictions and offences, except to the extent that such data forms an unavoidable part of records Customer needs to process with the Services.`,
        },
        {
          kind: "clause",
          number: "3.6",
          heading: "Security of Customer's environment",
          text: `Customer is responsible for managing its users and their access rights, for keeping credentials confidential, and for the security of its own devices, networks and systems, including the workbooks and files it stores outside the Services.`,
        },
        {
          kind: "clause",
          number: "3.7",
          heading: "Review of output",
          text: `Customer is responsible for reviewing the output of the Services before relying on it, including any Customer Personal Data that the output contains or derives, and for correcting inaccurate Customer Personal Data in its own records.`,
        },
        {
          kind: "clause",
          number: "3.8",
          heading: "Requests and regulators",
          text: `Customer is responsible for responding to requests from Data Subjects and for communicating with supervisory authorities about Customer Personal Data, with Provider's assistance as set out in sections 6 and 7.`,
        },
        {
          kind: "clause",
          number: "3.9",
          heading: "Assessment of security",
          text: `Customer has reviewed the security measures described in section 4 and Annex A and agrees that, taking into account the nature of Customer Personal Data and the risks of the processing, they provide an appropriate level of security.`,
        },
        {
          kind: "clause",
          number: "3.10",
          heading: "Notice to Provider",
          text: `Customer will inform Provider without undue delay if it becomes aware of any circumstance that prevents either party from complying with this DPA, or of any change in the roles described in sections 1.3 and 1.4.`,
        },
      ],
    },
    {
      id: "processor-obligations",
      number: "4",
      title: "Provider's Obligations as Processor",
      blocks: [
        {
          kind: "clause",
          number: "4.1",
          heading: "Documented instructions",
          text: `Provider will process Customer Personal Data only on Customer's documented instructions, including with regard to transfers to a third country, unless the law to which Provider is subject requires otherwise; in that case Provider will inform Customer of the legal requirement before processing, unless that law prohibits it. The Agreement, this DPA and Customer's configuration and use of the Services are Customer's complete documented instructions at the date of execution. Provider will inform Customer promptly if, in its opinion, an instruction infringes the Data Protection Laws.`,
        },
        {
          kind: "clause",
          number: "4.2",
          heading: "Confidentiality of personnel",
          text: `Provider will ensure that personnel authorized to process Customer Personal Data are bound by appropriate obligations of confidentiality, contractual or statutory, and have access only to the extent needed to perform their duties.`,
        },
        {
          kind: "clause",
          number: "4.3",
          heading: "Security measures",
          text: `Provider will implement and maintain appropriate technical and organizational measures to protect Customer Personal Data against Security Incidents, taking into account the state of the art, the costs of implementation, and the nature, scope, context and purposes of the processing and the risks to Data Subjects. These measures include:`,
          items: [
            `encryption of Customer Personal Data in transit using ${TLS} or higher;`,
            `encryption of Customer Personal Data at rest using ${AES} or an equivalent algorithm;`,
            `role-based access control on a least-privilege basis, with multi-factor authentication required for all administrative access;`,
            `network security controls, including isolation of production systems and deny-by-default firewall rules;`,
            `24/7 security monitoring of production systems, and audit logs of administrative access and security-relevant events;`,
            `a documented incident response process;`,
            `vendor management, including security review of Sub-processors before and during their engagement;`,
            `background checks on personnel with access to Customer Personal Data, where the law permits, and security training on joining and at regular intervals; and`,
            `physical security controls in the data centres of Provider's cloud infrastructure providers.`,
          ],
        },
        {
          kind: "clause",
          number: "4.4",
          heading: "Details of the measures",
          text: `The measures are described in more detail in Annex A. Provider may update them from time to time, provided that no update materially reduces the overall level of protection of Customer Personal Data.`,
        },
        {
          kind: "clause",
          number: "4.5",
          heading: "Security documentation",
          text: `On Customer's written request, Provider will make available documentation describing its security measures, such as summaries of its security policies and completed security questionnaires. This documentation is Provider's Confidential Information.`,
        },
        {
          kind: "clause",
          number: "4.6",
          heading: "Assistance",
          text: `Taking into account the nature of the processing and the information available to it, Provider will provide reasonable assistance to Customer in meeting its obligations under the Data Protection Laws relating to the security of processing, data protection impact assessments and prior consultations with supervisory authorities.`,
        },
        {
          kind: "clause",
          number: "4.7",
          heading: "Records",
          text: `Provider will maintain records of its processing of Customer Personal Data to the extent the Data Protection Laws require.`,
        },
      ],
    },
    {
      id: "sub-processors",
      number: "5",
      title: "Sub-processors",
      blocks: [
        {
          kind: "clause",
          number: "5.1",
          heading: "General authorization",
          text: `Customer gives Provider a general authorization to engage Sub-processors in accordance with this section 5.`,
        },
        {
          kind: "clause",
          number: "5.2",
          heading: "Categories",
          text: `Provider engages Sub-processors in the following categories:`,
          items: categoryItems(),
        },
        {
          kind: "clause",
          number: "5.3",
          heading: "Current list",
          text: `Provider publishes a current list of its Sub-processors on the ${NAME} website, with the service each provides, the data it receives and its location, together with every change to the list and a way to subscribe to email notice of changes. Provider will also provide the list to Customer on written request sent to ${EMAIL}.`,
          link: { words: "a current list of its Sub-processors", href: "/subprocessors" },
        },
        {
          kind: "clause",
          number: "5.4",
          heading: "Sub-processor terms",
          text: `Provider will engage each Sub-processor under a written agreement that imposes data protection obligations no less protective of Customer Personal Data than those in this DPA, to the extent they apply to the services the Sub-processor provides. Provider remains liable to Customer for the performance of each Sub-processor's obligations.`,
        },
        {
          kind: "clause",
          number: "5.5",
          heading: "Notice of new Sub-processors",
          text: `Provider will give Customer at least ${SUBPROCESSOR_NOTICE_DAYS} days' prior written notice before engaging a new Sub-processor or replacing an existing one, by email to Customer's account contact or by notice in the Services. The notice will identify the Sub-processor, its location and the processing it will perform. Provider publishes each change on the list described in section 5.3 when it gives the notice.`,
        },
        {
          kind: "clause",
          number: "5.6",
          heading: "Objection",
          text: `Customer may object to a new Sub-processor on reasonable grounds relating to the protection of Customer Personal Data by giving written notice to Provider within ${OBJECTION_DAYS} days after receiving Provider's notice and explaining the grounds for the objection.`,
        },
        {
          kind: "clause",
          number: "5.7",
          heading: "Resolution",
          text: `If Customer objects, the parties will discuss the objection in good faith, and Provider may propose a change to the Services or to Customer's configuration that avoids the use of the new Sub-processor for Customer Personal Data. If the objection is not resolved within 30 days after Provider receives it, Customer may terminate the affected Services by written notice to Provider, and Provider will refund any fees Customer has prepaid for the affected Services for the period after termination. This right of termination is in addition to any other rights Customer has under the Agreement.`,
        },
      ],
    },
    {
      id: "data-subject-rights",
      number: "6",
      title: "Data Subject Rights",
      blocks: [
        {
          kind: "clause",
          number: "6.1",
          heading: "Assistance",
          text: `Taking into account the nature of the processing, Provider will assist Customer by appropriate technical and organizational measures, insofar as this is possible, in fulfilling Customer's obligation to respond to requests from Data Subjects to exercise their rights under the Data Protection Laws, including rights of access, correction, deletion, restriction, portability and objection.`,
        },
        {
          kind: "clause",
          number: "6.2",
          heading: "Self-service",
          text: `Customer can access, correct, export and delete Customer Content through the Services. Where Customer cannot do so itself, Provider will, on Customer's request, take the action Customer reasonably requires.`,
        },
        {
          kind: "clause",
          number: "6.3",
          heading: "Requests received by Provider",
          text: `If Provider receives a request from a Data Subject that relates to Customer Personal Data and identifies Customer, Provider will forward it to Customer without undue delay and will not respond to it, other than to tell the Data Subject that it has passed the request to Customer, unless Customer authorizes a response or the law requires one.`,
        },
        {
          kind: "clause",
          number: "6.4",
          heading: "Cost",
          text: `Provider will provide this assistance without additional charge, unless the requests are manifestly excessive in number or complexity, in which case the parties will agree a reasonable fee in advance.`,
        },
      ],
    },
    {
      id: "security-incidents",
      number: "7",
      title: "Security Incidents",
      blocks: [
        {
          kind: "clause",
          number: "7.1",
          heading: "Notification",
          text: `Provider will notify Customer of a Security Incident without undue delay, and in any event no later than ${INCIDENT_HOURS} hours after becoming aware of it.`,
        },
        {
          kind: "clause",
          number: "7.2",
          heading: "Content of the notice",
          text: `The notice will describe, to the extent the information is then available:`,
          items: [
            `the nature of the Security Incident, including, where possible, the categories and approximate number of Data Subjects and records concerned;`,
            `the name and contact details of Provider's contact point from whom more information can be obtained;`,
            `the likely consequences of the Security Incident; and`,
            `the measures Provider has taken or proposes to take to address the Security Incident, including measures to mitigate its possible adverse effects.`,
          ],
        },
        {
          kind: "clause",
          number: "7.3",
          heading: "Information in phases",
          text: `Where it is not possible to provide all of this information at the same time, Provider will provide it in phases, without further undue delay, as it becomes available.`,
        },
        {
          kind: "clause",
          number: "7.4",
          heading: "Response and cooperation",
          text: `Provider will promptly investigate the Security Incident, take reasonable steps to contain it and mitigate its effects, and give Customer reasonable cooperation and information to help Customer meet any obligation to notify supervisory authorities or Data Subjects.`,
        },
        {
          kind: "clause",
          number: "7.5",
          heading: "Unsuccessful attempts",
          text: `Unsuccessful attempts or activities that do not compromise the security of Customer Personal Data, such as blocked sign-in attempts, pings, port scans and denial-of-service attacks that do not lead to unauthorized access, are not Security Incidents.`,
        },
        {
          kind: "clause",
          number: "7.6",
          heading: "Delivery and effect",
          text: `Provider will send notices under this section to the email address of Customer's account contact, which Customer is responsible for keeping current. A notification or response by Provider under this section is not an acknowledgement of fault or liability.`,
        },
      ],
    },
    {
      id: "retention-and-deletion",
      number: "8",
      title: "Return and Deletion of Data",
      blocks: [
        {
          kind: "clause",
          number: "8.1",
          heading: "During the term",
          text: `Customer may export or delete Customer Content at any time during the term of the Agreement using the features of the Services.`,
        },
        {
          kind: "clause",
          number: "8.2",
          heading: "Return after termination",
          text: `For ${EXPORT_DAYS} days after termination or expiry of the Agreement, Customer may export Customer Content using the Services or ask Provider to return it in a commonly used, machine-readable format.`,
        },
        {
          kind: "clause",
          number: "8.3",
          heading: "Deletion",
          text: `When that export period ends, and in any event within ${ACTIVE_DAYS} days after termination or expiry, Provider will delete Customer Personal Data from its active systems. Copies held in backups will be deleted within ${BACKUP_DAYS} days after termination or expiry, as the backups expire. Until deletion, backups remain protected by the measures in this DPA and are not used for any other purpose. Customer may ask Provider to delete Customer Personal Data earlier.`,
        },
        {
          kind: "clause",
          number: "8.4",
          heading: "Retention required by law",
          text: `Where the law requires Provider to retain Customer Personal Data, Provider may do so only for as long as and to the extent the law requires, will keep it protected under this DPA, and will process it only for the purpose of meeting that requirement.`,
        },
        {
          kind: "clause",
          number: "8.5",
          heading: "Certification",
          text: `On Customer's written request, Provider will certify in writing that it has deleted Customer Personal Data in accordance with this section.`,
        },
        {
          kind: "clause",
          number: "8.6",
          heading: "Customer's own copies",
          text: `This section applies to Customer Personal Data held by Provider and its Sub-processors. It does not apply to workbooks and files that Customer keeps in its own systems or storage, which remain under Customer's control.`,
        },
      ],
    },
    {
      id: "audits",
      number: "9",
      title: "Audits",
      blocks: [
        {
          kind: "clause",
          number: "9.1",
          heading: "Information",
          text: `Provider will make available to Customer, on written request, the information reasonably necessary to demonstrate its compliance with this DPA and with Article 28 of the GDPR, including the security documentation described in section 4.5.`,
        },
        {
          kind: "clause",
          number: "9.2",
          heading: "Third-party reports",
          text: `Where Provider or its Sub-processors hold independent third-party audit reports or certifications relevant to the Services, Provider will provide copies or summaries of them on request. Customer agrees that these reports, together with the information under section 9.1, will be used first to meet Customer's audit rights.`,
        },
        {
          kind: "clause",
          number: "9.3",
          heading: "On-site audits",
          text: `If the information made available under sections 9.1 and 9.2 is not sufficient to demonstrate Provider's compliance, Customer, or an independent auditor it appoints that is bound by confidentiality and is not a competitor of Provider, may audit Provider's processing of Customer Personal Data on site. Such audits may take place at most once a year, on at least 30 days' prior written notice, during normal business hours and in a way that minimizes disruption to Provider's business, unless a supervisory authority requires an additional audit or a Security Incident affecting Customer Personal Data has occurred.`,
        },
        {
          kind: "clause",
          number: "9.4",
          heading: "Scope and costs",
          text: `The parties will agree the scope, timing and duration of any on-site audit in advance. An audit will not give access to the data of Provider's other customers or to the facilities of Provider's cloud infrastructure providers, for which Provider will provide those providers' own audit reports. Each party bears its own costs of an audit, unless the audit reveals a material breach of this DPA by Provider, in which case Provider will bear its own costs and reimburse Customer's reasonable costs of the audit.`,
        },
        {
          kind: "clause",
          number: "9.5",
          heading: "Results",
          text: `Audit results are Provider's Confidential Information. Customer will share its findings with Provider, and Provider will promptly remedy any material non-compliance that the audit identifies.`,
        },
        {
          kind: "clause",
          number: "9.6",
          heading: "Standard Contractual Clauses",
          text: `Audits that Customer is entitled to carry out under the Standard Contractual Clauses will be carried out in accordance with this section 9, to the extent this is consistent with those clauses.`,
        },
      ],
    },
    {
      id: "international-transfers",
      number: "10",
      title: "International Transfers",
      blocks: [
        {
          kind: "clause",
          number: "10.1",
          heading: "Locations",
          text: `Provider and its Sub-processors may process Customer Personal Data in the United States and in other countries where they operate, provided that each transfer complies with the Data Protection Laws and this section 10.`,
        },
        {
          kind: "clause",
          number: "10.2",
          heading: "Standard Contractual Clauses",
          text: `To the extent Customer Personal Data that is subject to the GDPR is transferred to Provider in a country that is not recognized as providing an adequate level of protection, the Standard Contractual Clauses are incorporated into this DPA by reference and apply as follows:`,
          items: [
            `Module Two (controller to processor) applies, with Customer as data exporter and Provider as data importer;`,
            `Clause 7 (docking clause) applies;`,
            `in Clause 9, Option 2 (general written authorization) applies, and the time period for prior notice of changes to Sub-processors is ${SUBPROCESSOR_NOTICE_DAYS} days, as set out in section 5;`,
            `in Clause 11, the optional language in Clause 11(a) applies, so that Data Subjects may also lodge a complaint with an independent dispute resolution body at no cost to them, which Provider will identify in the information it makes available to Data Subjects under that clause;`,
            `in Clause 13, the competent supervisory authority is the one determined under Clause 13(a) and set out in Annex A;`,
            `in Clause 17, Option 1 applies, and the clauses are governed by the law of Ireland;`,
            `in Clause 18(b), disputes are resolved by the courts of Ireland; and`,
            `Annexes I and II of the Standard Contractual Clauses are completed with the information in Annex A of this DPA, and Annex III is not required because Option 2 of Clause 9 applies.`,
          ],
        },
        {
          kind: "clause",
          number: "10.3",
          heading: "United Kingdom",
          text: `To the extent Customer Personal Data that is subject to the UK GDPR is transferred to a country that is not recognized as providing adequate protection, the International Data Transfer Addendum to the EU Commission Standard Contractual Clauses issued by the UK Information Commissioner (the "UK Addendum") applies and is incorporated by reference. The information required by Tables 1 to 3 of the UK Addendum is set out in this DPA and Annex A, and for Table 4 either party may end the UK Addendum as its Section 19 allows.`,
        },
        {
          kind: "clause",
          number: "10.4",
          heading: "Switzerland",
          text: `To the extent Customer Personal Data that is subject to the FADP is transferred to a country that is not recognized as providing adequate protection, the Standard Contractual Clauses apply as set out in section 10.2, with these adaptations: the Swiss Federal Data Protection and Information Commissioner is the competent supervisory authority for transfers governed by the FADP; references to the GDPR are read as references to the FADP where the FADP applies; and the term "Member State" is not interpreted so as to prevent Data Subjects in Switzerland from bringing claims in their place of habitual residence under Clause 18(c).`,
        },
        {
          kind: "clause",
          number: "10.5",
          heading: "Conflict",
          text: `If there is any conflict between this DPA and the Standard Contractual Clauses, the UK Addendum or the Swiss adaptations, those clauses prevail to the extent of the conflict.`,
        },
        {
          kind: "clause",
          number: "10.6",
          heading: "Alternative mechanisms",
          text: `If Provider adopts another transfer mechanism recognized under the Data Protection Laws, that mechanism may be relied on instead of the Standard Contractual Clauses for the transfers it covers, and Provider will inform Customer.`,
        },
        {
          kind: "clause",
          number: "10.7",
          heading: "Requests from public authorities",
          text: `If Provider receives a legally binding request from a public authority for access to Customer Personal Data, it will, where legally permitted, notify Customer promptly, review the legality of the request, challenge it where there are reasonable grounds to do so, and disclose only the minimum information required.`,
        },
      ],
    },
    {
      id: "liability",
      number: "11",
      title: "Liability",
      blocks: [
        {
          kind: "clause",
          number: "11.1",
          heading: "Limitation",
          text: `Each party's liability arising out of or relating to this DPA, whether in contract, tort or under any other theory of liability, is subject to the exclusions and limitations of liability in the Agreement. Any reference in those provisions to the liability of a party includes its liability under this DPA.`,
        },
        {
          kind: "clause",
          number: "11.2",
          heading: "Single cap",
          text: `Liability under this DPA and under the Agreement counts towards a single aggregate limit and does not create a separate or additional limit.`,
        },
        {
          kind: "clause",
          number: "11.3",
          heading: "Data Subjects",
          text: `Nothing in this DPA limits either party's liability to Data Subjects under the third-party beneficiary provisions of the Standard Contractual Clauses, or any liability that cannot be limited under the Data Protection Laws.`,
        },
      ],
    },
    {
      id: "general-provisions",
      number: "12",
      title: "General Provisions",
      blocks: [
        {
          kind: "clause",
          number: "12.1",
          heading: "Part of the Agreement",
          text: `This DPA forms part of the Agreement. Except as changed by this DPA, the Agreement remains in full force and effect.`,
        },
        {
          kind: "clause",
          number: "12.2",
          heading: "Order of precedence",
          text: `With respect to the processing of Customer Personal Data, if there is any conflict between the documents below, they take precedence in this order:`,
          items: [
            `the Standard Contractual Clauses, together with the UK Addendum and the Swiss adaptations, where they apply;`,
            `this DPA, including Annex A; and`,
            `the rest of the Agreement.`,
          ],
        },
        {
          kind: "clause",
          number: "12.3",
          heading: "Term",
          text: `This DPA takes effect on the date of execution and remains in effect for as long as Provider processes Customer Personal Data, even after the Agreement ends. Sections 8, 9, 11 and 12 continue to apply until Provider has deleted all Customer Personal Data.`,
        },
        {
          kind: "clause",
          number: "12.4",
          heading: "Severability",
          text: `If any provision of this DPA is held invalid or unenforceable, the rest of this DPA remains in effect, and the provision will be amended to the minimum extent necessary to make it valid while preserving the parties' intentions as far as possible, or, if that is not possible, construed as if the invalid part had never been included.`,
        },
        {
          kind: "clause",
          number: "12.5",
          heading: "Governing law",
          text: `This DPA is governed by the law that governs the Agreement, and disputes under it are resolved by the courts that the Agreement specifies, except where the Standard Contractual Clauses or the Data Protection Laws require a different law or forum.`,
        },
        {
          kind: "clause",
          number: "12.6",
          heading: "Changes",
          text: `This DPA may be amended only in writing signed by both parties. Provider may, however, propose changes that are needed to comply with a change in the Data Protection Laws or a decision of a competent authority, by giving Customer at least 30 days' notice, provided that the changes do not reduce the overall protection of Customer Personal Data.`,
        },
        {
          kind: "clause",
          number: "12.7",
          heading: "Notices",
          text: `Notices to Provider under this DPA must be sent to ${EMAIL}, with a copy of any legal notice by post to ${ENTITY}, ${POSTAL_ADDRESS}. Notices to Customer are sent to the email address of Customer's account contact.`,
        },
        {
          kind: "clause",
          number: "12.8",
          heading: "Counterparts",
          text: `This DPA may be executed in counterparts and by electronic signature, each of which is an original and which together form one instrument.`,
        },
      ],
    },
  ],
  signature: {
    title: "Signature Page",
    intro: `Each party has caused this Data Processing Addendum, including Annex A, to be executed by its duly authorized representative, effective on the date of execution by both parties.`,
    parties: [
      { role: "Controller", party: "Customer", fields: SIGNATURE_FIELDS },
      { role: "Processor", party: ENTITY, fields: SIGNATURE_FIELDS },
    ],
  },
  annexes: [
    {
      id: "annex-a",
      number: "Annex A",
      title: "Details of Processing and Security Measures",
      blocks: [
        {
          kind: "paragraph",
          text: `This Annex forms part of the DPA. It also completes Annexes I and II of the Standard Contractual Clauses where they apply.`,
        },
        {
          kind: "clause",
          number: "A.1",
          heading: "Parties",
          text: `Data exporter: Customer, as identified in the Agreement and on the signature page, acting as Controller; its contact person is the account contact named in the Services. Data importer: ${ENTITY}, ${POSTAL_ADDRESS}, contact ${EMAIL}, acting as Processor. The activities relevant to the transfer are the provision of the Services under the Agreement.`,
        },
        {
          kind: "clause",
          number: "A.2",
          heading: "Subject matter",
          text: `The processing of Customer Personal Data contained in Customer Content so that Provider can provide the Services to Customer.`,
        },
        {
          kind: "clause",
          number: "A.3",
          heading: "Duration",
          text: `For the term of the Agreement and afterwards until deletion under section 8: for ${ACTIVE_DAYS} days after termination or expiry in active systems, and for up to ${BACKUP_DAYS} days after termination or expiry in backups.`,
        },
        {
          kind: "clause",
          number: "A.4",
          heading: "Nature and purpose",
          text: `Hosting, storage, transmission and analysis of Customer Content, including processing by AI agents on Customer's instructions, in order to prepare workpapers, cross-reference figures to their sources, reconcile balances, propose adjustments and prepare draft tax filings for Customer's review; providing support when Customer requests it; keeping the Services secure; and exporting, returning and deleting data.`,
        },
        {
          kind: "clause",
          number: "A.5",
          heading: "Categories of Data Subjects",
          text: `The Data Subjects are determined by Customer and may include:`,
          items: [
            `Customer's clients who are natural persons, and the owners, partners, shareholders, officers and trustees of Customer's business clients;`,
            `the employees and contractors of Customer's clients;`,
            `family members and dependants named in tax or financial records;`,
            `customers, vendors, lenders and other counterparties named in financial records; and`,
            `Customer's own personnel and authorized users, to the extent they appear in Customer Content.`,
          ],
        },
        {
          kind: "clause",
          number: "A.6",
          heading: "Categories of Personal Data",
          text: `The Personal Data is determined by Customer and may include:`,
          items: [
            `identification and contact details, such as names, postal and email addresses and telephone numbers;`,
            `government identifiers, such as taxpayer identification numbers and Social Security numbers;`,
            `financial information, such as bank and account details, transactions, balances, income, expenses and deductions;`,
            `payroll, compensation and employment information;`,
            `tax information, such as filing status, returns, schedules and correspondence with tax authorities; and`,
            `any other Personal Data that Customer includes in Customer Content.`,
          ],
        },
        {
          kind: "clause",
          number: "A.7",
          heading: "Sensitive data",
          text: `Provider does not intend to process special categories of personal data or data relating to criminal convictions and offences, and Customer will submit such data only as section 3.5 allows. Financial and tax records may nevertheless reveal such information incidentally, for example through medical expense deductions or charitable contributions, and government identifiers are treated as sensitive under some US state laws. All such data is protected by the measures in this Annex, including encryption, restricted access and audit logging.`,
        },
        {
          kind: "clause",
          number: "A.8",
          heading: "Frequency of transfer",
          text: `Continuous, whenever Customer and its users use the Services.`,
        },
        {
          kind: "clause",
          number: "A.9",
          heading: "Sub-processors",
          text: `Provider uses Sub-processors in the categories below, for the same subject matter, nature and duration as set out in this Annex and as further described in section 5. Each Sub-processor, with the data it receives and its location, is named on the list described in section 5.3.`,
          items: categoryItems(),
        },
        {
          kind: "clause",
          number: "A.10",
          heading: "Competent supervisory authority",
          text: `For transfers governed by the GDPR, the supervisory authority determined under Clause 13(a) of the Standard Contractual Clauses by reference to Customer's establishment or, where applicable, its representative in the European Union. For transfers governed by the UK GDPR, the UK Information Commissioner. For transfers governed by the FADP, the Swiss Federal Data Protection and Information Commissioner.`,
        },
        {
          kind: "clause",
          number: "A.11",
          heading: "Technical and organizational measures",
          text: `Provider maintains the following measures, which include every measure listed in section 4.3:`,
        },
        {
          kind: "table",
          header: ["Measure", "Description"],
          rows: [
            [
              "Encryption in transit",
              `All Customer Personal Data travelling between users' browsers or the Excel add-in, Provider's services and Sub-processors is encrypted using ${TLS} or higher. HTTP Strict Transport Security is enabled on Provider's web domains.`,
            ],
            [
              "Encryption at rest",
              `Customer Personal Data in databases, file storage and backups is encrypted using ${AES} or an equivalent algorithm. Keys are held in the cloud provider's managed key service, access to them is restricted to authorized systems and personnel, and their use is logged.`,
            ],
            [
              "Access control",
              "Role-based access on a least-privilege and need-to-know basis, with unique individual accounts and no shared administrative credentials. Multi-factor authentication is required for all administrative access to production systems, cloud consoles and source code repositories. Access rights are reviewed at least quarterly and removed promptly when a person changes role or leaves.",
            ],
            [
              "User authentication and isolation",
              "Users sign in through a dedicated identity provider that stores passwords only as salted hashes. Session cookies are marked HttpOnly and Secure. Each customer's data is logically separated from that of other customers.",
            ],
            [
              "Network security",
              "Production systems run in isolated private networks with deny-by-default firewall rules, and only the services needed to deliver the Services are exposed to the internet. Rate limiting and the cloud providers' protection against denial-of-service attacks are in place. Production is separated from development and test environments, which do not contain Customer Personal Data.",
            ],
            [
              "Security monitoring and audit logs",
              `Production systems are monitored 24/7, with automated alerts sent to on-call personnel. Audit logs record administrative access and security-relevant events, are protected against alteration and are retained for at least ${SECURITY_FACTS.auditLogMonths} months.`,
            ],
            [
              "Incident response",
              `A documented incident response plan defines roles, severity levels and escalation paths. Customers are notified within ${INCIDENT_HOURS} hours as set out in section 7. Every significant incident is followed by a review, and the plan is tested at least once a year.`,
            ],
            [
              "Vendor management",
              "Each Sub-processor undergoes a security and privacy review before it is engaged and is bound by written data protection terms under section 5. Provider reviews its Sub-processors' independent audit reports or security documentation at least once a year. AI model providers are contractually prohibited from using Customer Content to train their models.",
            ],
            [
              "Personnel",
              "Personnel with access to Customer Personal Data undergo background checks before access is granted, where the law permits, and sign confidentiality agreements. Security and privacy training is given on joining and at least once a year.",
            ],
            [
              "Physical security",
              "Provider operates no data centres of its own. Customer Personal Data is hosted in the data centres of Provider's cloud infrastructure providers, which control and log physical entry, maintain on-site security and video surveillance, and protect against fire, flood and power loss. Provider selects providers whose data centres are covered by independent audits, such as SOC 2 or ISO/IEC 27001, and reviews those reports.",
            ],
            [
              "Backup and recovery",
              `Backups are encrypted, stored separately from the primary systems and expire within ${BACKUP_DAYS} days. Restoration from backup is tested periodically.`,
            ],
            [
              "Secure development",
              "Changes to the Services are peer reviewed before release, dependencies are scanned for known vulnerabilities, and security fixes are prioritized according to severity.",
            ],
            [
              "Data minimization",
              "Only the Customer Content needed for a task is sent to AI model providers. Provider does not use Customer Content to train or fine-tune AI models without Customer's prior written consent.",
            ],
            [
              "Security documentation",
              "Summaries of Provider's security policies, available third-party reports and completed security questionnaires are provided on request, subject to confidentiality, as set out in section 4.5.",
            ],
          ],
        },
      ],
    },
  ],
};
