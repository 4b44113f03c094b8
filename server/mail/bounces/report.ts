/**
 * Reads what comes back to the bounce address: a delivery status notification (RFC 3464) becomes a
 * bounce, permanent or not, with its recipients; an abuse report in ARF (RFC 5965) becomes a
 * complaint; anything else (an auto-reply, a bounce in prose only, junk) is "unparsed" with a reason,
 * so the caller can keep it for a person to read. mailparser walks the MIME tree and decodes the
 * parts; the machine-readable parts themselves are header-like fields we read here.
 */
import { simpleParser, type Attachment } from "mailparser";
import addressparser from "nodemailer/lib/addressparser";

export type Report =
  | {
      kind: "bounce";
      permanent: boolean;
      recipients: { address: string; action: string; status: string; diagnostic?: string }[];
      addressedTo: string[];
      originalMessageId?: string;
    }
  | {
      kind: "complaint";
      feedbackType: string;
      originalRecipient?: string;
      addressedTo: string[];
      originalMessageId?: string;
    }
  | { kind: "unparsed"; reason: string; addressedTo: string[] };

/** Reports are small; a larger message is something else, and not worth the memory to parse. */
const MAX_REPORT_BYTES = 1024 * 1024;
/** Far more headers than any real report has, and cheap to scan when the body is not parsed. */
const MAX_HEADER_BYTES = 64 * 1024;
const MAX_DIAGNOSTIC_CHARS = 1000;
/** The headers that carry the envelope recipient, as delivery agents write them, and To. */
const ADDRESSED_TO_HEADERS = new Set(["delivered-to", "x-original-to", "envelope-to", "to"]);
/** RFC 6533's message/global-delivery-status is the same format in UTF-8. */
const DELIVERY_STATUS = new Set(["message/delivery-status", "message/global-delivery-status"]);
const FEEDBACK_REPORT = "message/feedback-report";
const RETURNED_MESSAGE = new Set([
  "message/rfc822",
  "message/global",
  "text/rfc822-headers",
  "message/global-headers",
]);

type Fields = Map<string, string>;

/**
 * Header-style fields up to the first blank line (or the end), folded lines joined, keys lowercased;
 * the first occurrence of a key wins. Used for the report parts and the returned message's headers.
 */
function readFields(lines: readonly string[]): Fields {
  const fields: Fields = new Map();
  let key: string | undefined;
  let value = "";
  const keep = () => {
    if (key !== undefined && !fields.has(key)) fields.set(key, value.replace(/\s+/g, " ").trim());
  };
  for (const line of lines) {
    if (line.trim() === "") break;
    if (/^[ \t]/.test(line)) {
      value += ` ${line.trim()}`;
      continue;
    }
    keep();
    const colon = line.indexOf(":");
    key = colon > 0 ? line.slice(0, colon).trim().toLowerCase() : undefined;
    value = colon > 0 ? line.slice(colon + 1) : "";
  }
  keep();
  return fields;
}

function linesOf(text: string): string[] {
  return text.split(/\r?\n/);
}

/** A part's decoded body as text: these parts are ASCII or, for the "global" types, UTF-8. */
function textOf(attachment: Attachment): string {
  return new TextDecoder("utf-8").decode(attachment.content);
}

/** Every header line of the top-level block with its key, folded lines joined. */
function topHeaders(raw: Buffer): { key: string; value: string }[] {
  const text = raw.subarray(0, MAX_HEADER_BYTES).toString("latin1");
  const headers: { key: string; value: string }[] = [];
  for (const line of linesOf(text)) {
    if (line.trim() === "") break;
    const last = headers.at(-1);
    if (/^[ \t]/.test(line)) {
      if (last) last.value += ` ${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(":");
    if (colon > 0)
      headers.push({
        key: line.slice(0, colon).trim().toLowerCase(),
        value: line.slice(colon + 1),
      });
  }
  return headers;
}

/**
 * Every address the message was delivered or addressed to, lowercased, once each, in header order.
 * Read from the raw header block rather than mailparser's result, so an unparsable or oversized
 * message still says whose it was.
 */
function addressedToOf(raw: Buffer): string[] {
  const found = new Set<string>();
  for (const { key, value } of topHeaders(raw)) {
    if (!ADDRESSED_TO_HEADERS.has(key)) continue;
    for (const { address } of addressparser(value, { flatten: true }))
      if (address.includes("@")) found.add(address.trim().toLowerCase());
  }
  return [...found];
}

/** "rfc822; Ada@example.com" -> "ada@example.com": the address type goes, angle brackets too. */
function addressOf(field: string | undefined): string | undefined {
  if (!field) return undefined;
  const bare = field
    .replace(/^[A-Za-z0-9-]+\s*;/, "")
    .trim()
    .replace(/^<(.*)>$/, "$1")
    .trim();
  return bare.includes("@") ? bare.toLowerCase() : undefined;
}

/** The first `<...>` in a Message-ID field, which drops comments and stray text around it. */
function messageIdOf(field: string | undefined): string | undefined {
  if (!field) return undefined;
  const bracketed = /<[^<>\s]+>/.exec(field)?.[0];
  if (bracketed) return bracketed;
  const bare = field.trim();
  return bare && !/\s/.test(bare) ? `<${bare}>` : undefined;
}

function returnedMessageId(attachments: readonly Attachment[]): string | undefined {
  for (const part of attachments) {
    if (!RETURNED_MESSAGE.has(part.contentType)) continue;
    const id = messageIdOf(readFields(linesOf(textOf(part))).get("message-id"));
    if (id) return id;
  }
  return undefined;
}

/** Blocks of fields separated by blank lines: the per-message block, then one per recipient. */
function fieldBlocks(text: string): Fields[] {
  const blocks: string[][] = [[]];
  for (const line of linesOf(text)) {
    if (line.trim() === "") {
      if (blocks.at(-1)!.length > 0) blocks.push([]);
    } else blocks.at(-1)!.push(line);
  }
  return blocks.filter((block) => block.length > 0).map(readFields);
}

const ENHANCED_STATUS = /\b([245]\.\d{1,3}\.\d{1,3})\b/;

function readDeliveryStatus(
  parts: readonly Attachment[],
  addressedTo: string[],
  originalMessageId: string | undefined,
): Report {
  const blocks = parts.flatMap((part) => fieldBlocks(textOf(part)));
  const recipients: Extract<Report, { kind: "bounce" }>["recipients"] = [];
  for (const fields of blocks) {
    // Original-Recipient is the address as we gave it, before any forwarding rewrote it.
    const address =
      addressOf(fields.get("original-recipient")) ?? addressOf(fields.get("final-recipient"));
    if (!address) continue;
    const diagnostic = fields
      .get("diagnostic-code")
      ?.replace(/^[A-Za-z0-9-]+\s*;\s*/, "")
      .slice(0, MAX_DIAGNOSTIC_CHARS);
    // Status is required; an MTA that leaves it out usually still puts the code in its diagnostic.
    const status =
      ENHANCED_STATUS.exec(fields.get("status") ?? "")?.[1] ??
      ENHANCED_STATUS.exec(diagnostic ?? "")?.[1] ??
      "";
    const action = (fields.get("action") ?? "").split(/[\s(]/)[0]!.toLowerCase();
    recipients.push({ address, action, status, ...(diagnostic ? { diagnostic } : {}) });
  }
  if (recipients.length === 0)
    return { kind: "unparsed", reason: "delivery report without recipients", addressedTo };
  // A report that every recipient was delivered or relayed is good news, not a bounce.
  const failures = recipients.filter((r) => r.action === "failed" || r.action === "delayed");
  if (failures.length === 0)
    return {
      kind: "unparsed",
      reason: "delivery report without a failed or delayed recipient",
      addressedTo,
    };
  // Only a final failure with a permanent status suppresses; a failure after retrying a 4.x.x (the
  // mailbox stayed full) is still the kind of thing that may pass.
  const permanent = failures.some((r) => r.action === "failed" && r.status.startsWith("5."));
  const id =
    originalMessageId ??
    // Some large providers repeat the original Message-ID among the per-message fields.
    messageIdOf(blocks[0]?.get("x-original-message-id"));
  return {
    kind: "bounce",
    permanent,
    recipients,
    addressedTo,
    ...(id ? { originalMessageId: id } : {}),
  };
}

function readFeedbackReport(
  part: Attachment,
  addressedTo: string[],
  originalMessageId: string | undefined,
): Report {
  const fields = readFields(linesOf(textOf(part)));
  const feedbackType = fields.get("feedback-type")?.split(/\s/)[0]?.toLowerCase();
  if (!feedbackType)
    return { kind: "unparsed", reason: "feedback report without Feedback-Type", addressedTo };
  const originalRecipient = addressOf(fields.get("original-rcpt-to"));
  return {
    kind: "complaint",
    feedbackType,
    addressedTo,
    ...(originalRecipient ? { originalRecipient } : {}),
    ...(originalMessageId ? { originalMessageId } : {}),
  };
}

/** What a message that came back to the bounce address says. Never throws. */
export async function readReport(raw: Buffer): Promise<Report> {
  let addressedTo: string[] = [];
  try {
    addressedTo = addressedToOf(raw);
    if (raw.length > MAX_REPORT_BYTES)
      return { kind: "unparsed", reason: "larger than 1 MB", addressedTo };
    const parsed = await simpleParser(raw, {
      // As attachments, not merged into the text, and a returned message kept whole, so that
      // its headers (and its Message-ID) can be read.
      keepDeliveryStatus: true,
      ignoreEmbedded: true,
      // Only the structure is wanted: no HTML to text, no links, no checksums.
      skipHtmlToText: true,
      skipTextToHtml: true,
      skipImageLinks: true,
      skipTextLinks: true,
      checksumAlgo: false,
      maxChildNodes: 100,
    });
    const originalMessageId = returnedMessageId(parsed.attachments);
    const statusParts = parsed.attachments.filter((part) => DELIVERY_STATUS.has(part.contentType));
    if (statusParts.length > 0)
      return readDeliveryStatus(statusParts, addressedTo, originalMessageId);
    const feedback = parsed.attachments.find((part) => part.contentType === FEEDBACK_REPORT);
    if (feedback) return readFeedbackReport(feedback, addressedTo, originalMessageId);
    return { kind: "unparsed", reason: "not a delivery or feedback report", addressedTo };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { kind: "unparsed", reason: `unreadable: ${why}`.slice(0, 200), addressedTo };
  }
}
