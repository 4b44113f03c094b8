/**
 * The outbox's HTTP deliveries: the waitlist entry posted, form-encoded, to the operator's
 * collector (a Google Form's formResponse URL, say), and the operator's Slack notice. Where they go
 * is read from the configuration when they are sent, so a rotated URL applies to rows still due.
 */
import type { Env } from "#server/env.ts";
import { DeliveryError } from "#server/outbox/delivery-error.ts";
import type { ForwardPayload, SlackPayload } from "#server/outbox/outbox.ts";

const REQUEST_TIMEOUT_MS = 10_000;

async function post(url: string, contentType: string, body: string, what: string) {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": contentType },
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    throw new DeliveryError(`${what} unreachable: ${(error as Error).message}`, false);
  }
  await response.arrayBuffer().catch(() => undefined);
  const status = response.status;
  if (status >= 200 && status < 400) return;
  // A refused request stays refused; a busy or broken server may answer later.
  const permanent = status >= 400 && status < 500 && status !== 408 && status !== 429;
  throw new DeliveryError(`${what} answered ${status}`, permanent);
}

export function forwardEntry(
  target: NonNullable<Env["waitlistForward"]>,
  entry: ForwardPayload,
): Promise<void> {
  const [nameField, emailField, companyField, messageField] = target.fields;
  const body = new URLSearchParams({
    [nameField]: entry.name,
    [emailField]: entry.email,
    [companyField]: entry.company ?? "",
    [messageField]: entry.message ?? "",
  });
  return post(target.url, "application/x-www-form-urlencoded", body.toString(), "collector");
}

export function notifySlack(url: string, payload: SlackPayload): Promise<void> {
  return post(url, "application/json", JSON.stringify({ text: payload.text }), "Slack");
}

/** Slack reads &, < and > as markup (links, mentions): a visitor's text must not become one. */
export function slackText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
