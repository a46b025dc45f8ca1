import { callbackDeliveryQuery, type CallbackDeliveryFilter, type EndpointHealth } from '@paydesk/contracts/callbacks';
import { CALLBACK_STATUSES, WEBHOOK_TYPES, type WebhookType } from '@paydesk/contracts/engine';
import { parseIsoDay, utcDayRange } from '@paydesk/contracts/dates';

/** The Merchant page's tabs, each a value of the `tab` URL parameter. */
const MERCHANT_TABS = ['profile', 'callbacks'] as const;
export type MerchantTab = (typeof MERCHANT_TABS)[number];

type CallbackStatus = (typeof CALLBACK_STATUSES)[number];

/**
 * The deliveries list's filters and position as they live in the URL, so that a filtered list (e.g. the failed
 * deliveries of the day the endpoint was down) can be bookmarked and shared. Days are UTC days (YYYY-MM-DD), the
 * range inclusive; anything malformed is dropped, never sent.
 */
export type CallbackFilters = {
  status: CallbackStatus | null;
  type: WebhookType | null;
  fromDay: string | null;
  toDay: string | null;
  invoiceId: string | null;
};
export type CallbacksState = CallbackFilters & { tab: MerchantTab; after: string | null };

export const EMPTY_CALLBACK_FILTERS: CallbackFilters = {
  status: null,
  type: null,
  fromDay: null,
  toDay: null,
  invoiceId: null,
};

const isDay = (v: string | null): v is string => !!v && /^\d{4}-\d{2}-\d{2}$/.test(v) && parseIsoDay(v) !== null;
const oneOf = <T extends string>(list: readonly T[], v: string | null): T | null =>
  v !== null && (list as readonly string[]).includes(v) ? (v as T) : null;

export function parseCallbacksState(sp: URLSearchParams): CallbacksState {
  const invoiceId = sp.get('invoiceId');
  const after = sp.get('after');
  const fromDay = sp.get('from');
  const toDay = sp.get('to');
  return {
    tab: oneOf(MERCHANT_TABS, sp.get('tab')) ?? 'profile',
    status: oneOf(CALLBACK_STATUSES, sp.get('status')),
    type: oneOf(WEBHOOK_TYPES, sp.get('type')),
    fromDay: isDay(fromDay) ? fromDay : null,
    toDay: isDay(toDay) && (!isDay(fromDay) || toDay >= fromDay) ? toDay : null,
    invoiceId: invoiceId && callbackDeliveryQuery.shape.invoiceId.safeParse(invoiceId).success ? invoiceId : null,
    after: after && callbackDeliveryQuery.shape.after.safeParse(after).success ? after : null,
  };
}

/** The URL of a state, without defaults. */
export function toCallbacksSearchParams(s: CallbacksState): URLSearchParams {
  const sp = new URLSearchParams();
  if (s.tab !== 'profile') sp.set('tab', s.tab);
  if (s.status) sp.set('status', s.status);
  if (s.type) sp.set('type', s.type);
  if (s.fromDay) sp.set('from', s.fromDay);
  if (s.toDay) sp.set('to', s.toDay);
  if (s.invoiceId) sp.set('invoiceId', s.invoiceId);
  if (s.after) sp.set('after', s.after);
  return sp;
}

/** The API's filter of the list and of a replay: the days become the range from the first day's start to the last's end. */
export function toDeliveryFilter(f: CallbackFilters): Omit<CallbackDeliveryFilter, 'merchant'> {
  const day = (d: string | null) => (d ? utcDayRange(parseIsoDay(d)!) : null);
  return {
    ...(f.status ? { status: f.status } : {}),
    ...(f.type ? { type: f.type } : {}),
    ...(f.fromDay ? { from: day(f.fromDay)!.start.toISOString() } : {}),
    ...(f.toDay ? { to: day(f.toDay)!.end.toISOString() } : {}),
    ...(f.invoiceId ? { invoiceId: f.invoiceId } : {}),
  };
}

export const isFiltered = (f: CallbackFilters) =>
  Object.entries(EMPTY_CALLBACK_FILTERS).some(([k, v]) => f[k as keyof CallbackFilters] !== v);

export const CALLBACK_STATUS_LABELS: Record<CallbackStatus, string> = {
  PENDING: 'Pending',
  DELIVERED: 'Delivered',
  FAILED: 'Failed',
  NO_URL: 'No URL',
};
export const EVENT_LABELS: Record<WebhookType, string> = {
  'invoice.status': 'Status changed',
  'invoice.amount_changed': 'Amount changed',
  'invoice.manual': 'Sent by hand',
};

/** "97.5 %" (one decimal, none when whole); null for no attempts. */
export function formatRate(rate: number | null): string | null {
  if (rate === null) return null;
  const pct = Math.round(rate * 1000) / 10;
  return `${Number.isInteger(pct) ? pct : pct.toFixed(1)} %`;
}

/**
 * How long a replay of `count` deliveries takes to fall due at the server's rate, in words: "about 2 min", "less than
 * a minute".
 */
export function replayDuration(count: number, perSecond: number): string {
  const seconds = count / perSecond;
  if (seconds < 60) return 'less than a minute';
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return `about ${minutes} min`;
  return `about ${Math.round(minutes / 6) / 10} h`;
}

/** What the endpoint's last answer was, in words: "HTTP 503", an error, or null. */
export const lastAnswer = (h: Pick<EndpointHealth, 'lastResponseCode' | 'lastError'>) =>
  h.lastResponseCode !== null ? `HTTP ${h.lastResponseCode}` : h.lastError;
