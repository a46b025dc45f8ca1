import { z } from 'zod';
import type { RoleScope } from './permissions';

/*
 * Notifications: alerts derived from the current state of the books and of delivery, never stored. Each one is "In
 * process" while its condition holds and "Closed" for a while after what the database records shows it was resolved.
 */

/**
 * - LOW_SUCCESS_RATE: a terminal's success rate over the last hour is below its SUCCESS_PERCENT_LOW_THRESHOLD;
 * - CALLBACK_FAILED: a merchant's callback endpoint refused ENDPOINT_FAILING_ATTEMPTS deliveries in a row;
 * - UNMATCHED_MONEY: money no invoice took has waited in suspense longer than UNMATCHED_ALERT_AFTER_MS;
 * - PAYOUT_STUCK: a payout has been with its provider longer than the desk's payout threshold;
 * - CONTRADICTION: a provider's answer contradicts the books;
 * - ACCOUNT_PAUSED: a provider account is out of routing.
 */
const NOTIFICATION_KINDS = [
  'LOW_SUCCESS_RATE',
  'CALLBACK_FAILED',
  'UNMATCHED_MONEY',
  'PAYOUT_STUCK',
  'CONTRADICTION',
  'ACCOUNT_PAUSED',
  'APPROVAL',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The kinds about the platform's money and providers: platform staff who may read the operations desk only. */
const PLATFORM_NOTIFICATION_KINDS: readonly NotificationKind[] = [
  'UNMATCHED_MONEY',
  'PAYOUT_STUCK',
  'CONTRADICTION',
  'ACCOUNT_PAUSED',
];

/** The permissions of the actions two-person control may hold (approvals.ts APPROVAL_ACTIONS, kept free of zod here). */
const APPROVAL_PERMISSIONS = [
  'invoice.status.change',
  'invoice.amount.change',
  'settlement.create',
  'people.account.edit',
  'incoming.resolve',
  'merchant.key.edit',
];

/** The statuses the Notifications page shows. */
const NOTIFICATION_STATUSES = ['In process', 'Closed'] as const;

/** The period a terminal's success rate is measured over (monitoring's default period). */
export const SUCCESS_RATE_WINDOW_MINUTES = 60;
/** Failed delivery attempts in a row, since the endpoint last took a callback, that make it "failing". */
export const ENDPOINT_FAILING_ATTEMPTS = 5;
/** Unmatched money older than this is an alert (the desk lists it from the first minute). */
export const UNMATCHED_ALERT_AFTER_MS = 60 * 60_000;
/** How long a resolved alert stays listed as Closed. */
export const CLOSED_LOOKBACK_MS = 24 * 3_600_000;
/** Most alerts of one kind listed (the oldest first); the In process count is always exact. */
export const NOTIFICATION_KIND_LIMIT = 100;
/** How often the bell and the page read the alerts again. */
export const NOTIFICATIONS_REFRESH_MS = 60_000;

/**
 * Which alerts a user sees (docs/operations.md, "Alerts"): an alert shows only what the user may already see elsewhere.
 * - platform staff with exceptions.read: the desk's kinds, for the whole platform;
 * - success rates with data.terminal.statistic (the permission behind monitoring's figures);
 * - failing callback endpoints with merchant.callback.read (the permission behind the invoice's Callbacks section);
 * the last two for every merchant for platform staff with merchant.rw.all, else for the user's own merchant only.
 */
export function visibleNotificationKinds(perms: readonly string[], scope: RoleScope): NotificationKind[] {
  const kinds: NotificationKind[] = [];
  const merchants = scope === 'merchant' || perms.includes('merchant.rw.all');
  if (merchants && perms.includes('data.terminal.statistic')) kinds.push('LOW_SUCCESS_RATE');
  if (merchants && perms.includes('merchant.callback.read')) kinds.push('CALLBACK_FAILED');
  if (scope === 'platform' && perms.includes('exceptions.read')) kinds.push(...PLATFORM_NOTIFICATION_KINDS);
  // the user's own approval requests (two-person control): whoever may make one
  if (APPROVAL_PERMISSIONS.some((p) => perms.includes(p))) kinds.push('APPROVAL');
  return kinds;
}

/** How long something lasted, as a person says it: "45 s", "12 min", "3 h 5 min", "2 d 4 h". */
export function durationText(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

export const notificationListQuery = z
  .object({
    /** IN_PROCESS: only what holds now (what the bell counts); CLOSED: only what was resolved lately */
    status: z.enum(['IN_PROCESS', 'CLOSED'], { error: 'status must be IN_PROCESS or CLOSED' }).optional(),
  })
  .strict();
export type NotificationListQuery = z.infer<typeof notificationListQuery>;

const notificationItem = z.object({
  /** stable while the condition lasts: the kind and its subject (terminal, endpoint, payment, invoice, account) */
  id: z.string(),
  kind: z.enum(NOTIFICATION_KINDS),
  /** what it is about, in a few words */
  name: z.string(),
  /** what is wrong (or how it ended), in words, amounts formatted */
  paymentStatus: z.string(),
  status: z.enum(NOTIFICATION_STATUSES),
  /** when the condition began, as far as the records tell */
  since: z.iso.datetime(),
  /** when it was resolved; null while In process */
  closedAt: z.iso.datetime().nullable(),
  /** the merchant it concerns; null for the platform's own (provider accounts, unmatched money) */
  merchantId: z.uuid().nullable(),
  merchantName: z.string().nullable(),
  /** where to act on it: a back-office path */
  link: z.string(),
});
export type NotificationItem = z.infer<typeof notificationItem>;

export const notificationListResponse = z.object({
  /** In process first (newest first), then Closed (latest resolved first) */
  data: z.array(notificationItem),
  /** how many alerts are In process for this user, all of them (data lists at most NOTIFICATION_KIND_LIMIT a kind) */
  inProcess: z.int(),
});
