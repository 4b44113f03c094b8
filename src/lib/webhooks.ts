/**
 * Signed webhooks as the admin pages see them (decision 046): the events an endpoint may ask for,
 * and what the server tells the pages. Read on the server by server/webhooks/endpoints.ts.
 */

/** Every event a webhook can carry, with the words the admin page uses for it. */
export const WEBHOOK_EVENTS = {
  "entry.created": "A waitlist entry was made",
  "entry.confirmed": "An entry's owner confirmed the address",
  "entry.invited": "An entry was invited (or its invitation sent again)",
  "entry.joined": "An invited entry joined (an account was made)",
  "entry.declined": "An entry was declined",
  "entry.removed": "An entry was erased (by its owner, an admin or a privacy request)",
  "privacy_request.completed": "A privacy request was completed",
} as const;

export type WebhookEvent = keyof typeof WEBHOOK_EVENTS;

/** The event a test sends: the receiver can tell it from real ones. */
export const TEST_EVENT = "webhook.test";

export const isWebhookEvent = (value: string): value is WebhookEvent =>
  Object.hasOwn(WEBHOOK_EVENTS, value);

/** An attempt, as the delivery log shows it. */
export type WebhookAttempt = {
  id: number;
  at: string;
  messageId: string;
  eventType: string;
  statusCode: number | null;
  durationMs: number;
  outcome: "delivered" | "retry" | "failed";
  error: string | null;
};

export type WebhookEndpointView = {
  id: number;
  url: string;
  description: string;
  events: string[];
  createdAt: string;
  createdBy: string;
  disabledAt: string | null;
  disabledReason: string | null;
  failingSince: string | null;
  /** While the secret before the last rotation still signs (ISO 8601); null otherwise. */
  previousSecretUntil: string | null;
  /** The last attempt, for the list; null before the first. */
  lastAttempt: WebhookAttempt | null;
  /** Deliveries still waiting (first tries and retries). */
  waiting: number;
};

/** What an administrator may do to an endpoint on its page. */
export type EndpointIntent = "test" | "rotate" | "disable" | "enable" | "remove";

export type WebhookChange =
  | { ok: true; message: string; secret?: string }
  | { ok: false; message: string; field?: "url" | "description" | "events" };

export type WebhooksPort = {
  /** WEBHOOKS_ALLOW_PRIVATE: endpoints may be on private addresses (local use and tests). */
  allowsPrivate: boolean;
  list: () => Promise<WebhookEndpointView[]>;
  /** The endpoint and its last attempts, newest first; null when there is none. */
  get: (
    id: number,
  ) => Promise<{ endpoint: WebhookEndpointView; attempts: WebhookAttempt[] } | null>;
  add: (
    input: { url: string; description: string; events: string[] },
    actor: { adminEmail: string; clientAddress: string },
  ) => Promise<WebhookChange & { id?: number }>;
  act: (
    id: number,
    intent: EndpointIntent,
    actor: { adminEmail: string; clientAddress: string },
  ) => Promise<WebhookChange>;
};
