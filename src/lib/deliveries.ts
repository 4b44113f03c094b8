/**
 * What the server tells the admin's deliveries page about the outbox (decision 022): how many
 * messages wait, went out or failed, the latest failures with their reasons, and the oldest
 * messages still waiting. Read on the server by server/outbox/deliveries.ts.
 */

/** A mail, the post to the operator's collector, or the Slack notice. */
export type DeliveryChannel = "email" | "forward" | "slack" | "webhook";

type Delivery = {
  id: number;
  channel: DeliveryChannel;
  /** An email's To addresses; null for the collector and Slack, which have one destination each. */
  recipient: string | null;
  attempts: number;
  /** When the cause wrote it into the outbox (ISO 8601). */
  createdAt: string;
};

export type FailedDelivery = Delivery & {
  /** When it was given up; null for messages that failed before that was recorded. */
  failedAt: string | null;
  reason: string | null;
};

export type WaitingDelivery = Delivery & {
  /** Due from then; for a message being sent now, when it is tried again should that send stop. */
  nextAttemptAt: string;
  lastError: string | null;
};

export type DeliveriesOverview = {
  counts: { pending: number; sent: number; failed: number };
  /** Newest first, at most the limit asked for. */
  failed: FailedDelivery[];
  /** Oldest first, at most the limit asked for. */
  waiting: WaitingDelivery[];
};

export type DeliveriesPort = {
  overview: (limits: { failed: number; waiting: number }) => Promise<DeliveriesOverview>;
};
