/**
 * What the admin dashboard shows (decision 028): leads per day, sources, the funnel from page
 * views to joined, and how mail is flowing. Read on the server by server/operations/dashboard.ts.
 */

/** The periods the funnel and the sources can cover, in days up to today (UTC). */
export const DASHBOARD_PERIODS = [7, 30, 90, 365] as const;
export type DashboardPeriod = (typeof DASHBOARD_PERIODS)[number];
const DEFAULT_PERIOD: DashboardPeriod = 30;

export type SourceRow = {
  /** A campaign's utm_source, a referring host, or "(direct)". */
  source: string;
  views: number;
  entries: number;
  confirmed: number;
  joined: number;
};

type Funnel = {
  views: number;
  entries: number;
  /** Of those entries: confirmed by their owner, invited, joined. */
  confirmed: number;
  invited: number;
  joined: number;
};

/**
 * Bounces and complaints over the last 30 days against the mail sent in them (decision 041), with
 * the warning levels: above 0.1% complaints (Gmail's own limit is 0.3%), above 2% bounces.
 */
export const MAIL_HEALTH_LIMITS = { complaintRate: 0.001, bounceRate: 0.02 } as const;

/** Broadcasts the dashboard lists with their own rates. */
export const BROADCASTS_SHOWN = 10;
type MailHealth = { sent: number; bounced: number; complained: number; suppressedNow: number };

/** A broadcast begun in the last 30 days: its mails sent, and how many bounced or were complained of. */
type BroadcastHealth = {
  id: number;
  subject: string;
  startedAt: string;
  sent: number;
  bounced: number;
  complained: number;
};

type MailFlow = {
  /** The last 30 days, whatever period the page shows. */
  health: MailHealth;
  /** The broadcasts begun in the last 30 days, newest first, at most BROADCASTS_SHOWN. */
  broadcasts: BroadcastHealth[];
  waiting: number;
  sentLastDay: number;
  failedLastDay: number;
  /** When the oldest message still waiting was written (ISO 8601), or null. */
  oldestWaitingAt: string | null;
  lastFailure: { at: string | null; reason: string | null } | null;
};

/** Entries that shared links brought (decision 045), in the period. */
export const REFERRERS_SHOWN = 10;
type Referrals = {
  /** Entries made in the period through someone's shared link, and of them confirmed. */
  entries: number;
  confirmed: number;
  /** The entries whose links brought those, most first, at most REFERRERS_SHOWN. */
  referrers: { id: number; name: string; email: string; entries: number; confirmed: number }[];
  /** How many entries' links brought anyone in the period (the table may show fewer). */
  referrerCount: number;
};

export type DashboardOverview = {
  period: { days: DashboardPeriod; from: string; to: string };
  /** The last 30 days, oldest first, every day present. */
  leadsPerDay: { day: string; entries: number }[];
  /** Sorted by entries, then views; at most 50. */
  sources: SourceRow[];
  funnel: Funnel;
  referrals: Referrals;
  mail: MailFlow;
};

export type DashboardPort = {
  overview: (days: DashboardPeriod) => Promise<DashboardOverview>;
};

/** The period asked for in `?period=`, or the default for anything else. */
export function periodFrom(value: string | null): DashboardPeriod {
  const days = Number(value);
  return (DASHBOARD_PERIODS as readonly number[]).includes(days)
    ? (days as DashboardPeriod)
    : DEFAULT_PERIOD;
}
