import { durationText } from '@paydesk/contracts/notifications';
import { INCOMING_STATUSES, type IncomingStatus } from '@paydesk/contracts/provider-api';
import { exceptionCsvQuery } from '@paydesk/contracts/exceptions';
import type { QueryParams } from '../../../lib/api';

/** The desk's tabs, in the order a shift works them; each is a value of the `tab` URL parameter. */
const DESK_TABS = ['unmatched', 'payed', 'payouts', 'callbacks', 'contradictions', 'paused', 'statements'] as const;
export type DeskTab = (typeof DESK_TABS)[number];

/**
 * What a queue is narrowed to, as the API takes it: unmatched money by provider, account, amount (minor units,
 * inclusive) and when it was reported (ISO, from inclusive, to exclusive); the stuck queues by merchant.
 */
export type DeskFilters = {
  providerId: number | null;
  accountId: number | null;
  amountFrom: number | null;
  amountTo: number | null;
  from: string | null;
  to: string | null;
  merchant: string | null;
};
export const NO_FILTERS: DeskFilters = {
  providerId: null,
  accountId: null,
  amountFrom: null,
  amountTo: null,
  from: null,
  to: null,
  merchant: null,
};
type FilterKey = keyof DeskFilters;

const UNMATCHED_FILTERS = ['providerId', 'accountId', 'amountFrom', 'amountTo', 'from', 'to'] as const;
/** The filters each tab has (the stuck queues share theirs, so it stays as a shift moves between them). */
const TAB_FILTERS: Record<DeskTab, readonly FilterKey[]> = {
  unmatched: UNMATCHED_FILTERS,
  payed: ['merchant'],
  payouts: ['merchant'],
  callbacks: ['merchant'],
  contradictions: [],
  paused: [],
  statements: [],
};

export type DeskState = DeskFilters & {
  tab: DeskTab;
  /** unmatched money: which items (UNMATCHED by default, the work still to do) */
  status: IncomingStatus | 'ALL';
  /** keyset position of the page shown (the previous page's `next`) */
  after: string | null;
};

const filterRule = exceptionCsvQuery.shape;
/** A URL value checked with the API's own rule for that filter: null when absent or not one the API takes. */
function filterValue(key: FilterKey, raw: string | null): number | string | null {
  if (raw === null || raw.trim() === '') return null;
  const r = filterRule[key].safeParse(raw);
  if (!r.success || r.data === undefined) return null;
  // one spelling of an instant in the URL, whatever offset it was written with
  return key === 'from' || key === 'to' ? new Date(r.data as string).toISOString() : r.data;
}

/**
 * The desk's state as its URL says it, so a filtered queue can be bookmarked and shared. Values the API would refuse
 * are dropped, never sent: a malformed one, a filter the tab does not have, the far end of a range the wrong way round.
 */
export function parseDeskState(sp: URLSearchParams): DeskState {
  const tabParam = sp.get('tab');
  const status = sp.get('status');
  const tab = (DESK_TABS as readonly string[]).includes(tabParam ?? '') ? (tabParam as DeskTab) : 'unmatched';
  const filters: Record<string, unknown> = { ...NO_FILTERS };
  for (const key of TAB_FILTERS[tab]) filters[key] = filterValue(key, sp.get(key));
  const f = filters as DeskFilters;
  if (f.amountFrom !== null && f.amountTo !== null && f.amountFrom > f.amountTo) f.amountTo = null;
  if (f.from !== null && f.to !== null && f.from >= f.to) f.to = null;
  return {
    tab,
    status:
      status === 'ALL' || (INCOMING_STATUSES as readonly string[]).includes(status ?? '')
        ? (status as DeskState['status'])
        : 'UNMATCHED',
    ...f,
    after: sp.get('after') || null,
  };
}

/** The filters of the state's tab that are set, as the API takes them (the list's and its CSV's query). */
export function deskFilterQuery(s: DeskState): QueryParams {
  const q: QueryParams = {};
  for (const key of TAB_FILTERS[s.tab]) {
    const v = s[key];
    if (v !== null) q[key] = v;
  }
  return q;
}

/** Any filter of the tab is set (the desk offers to clear them). */
export const hasDeskFilters = (s: DeskState) => TAB_FILTERS[s.tab].some((key) => s[key] !== null);

/** A change of filters: the list starts again from its first page. */
export const withFilters = (s: DeskState, next: Partial<DeskFilters>): DeskState => ({ ...s, ...next, after: null });

export function toDeskSearchParams(s: DeskState): URLSearchParams {
  const sp = new URLSearchParams();
  if (s.tab !== 'unmatched') sp.set('tab', s.tab);
  if (s.status !== 'UNMATCHED') sp.set('status', s.status);
  for (const [key, v] of Object.entries(deskFilterQuery(s))) sp.set(key, String(v));
  if (s.after) sp.set('after', s.after);
  return sp;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** An instant as the date-time pickers hold it: local time, `YYYY-MM-DD HH:mm:ss`. */
export function isoToLocalInput(iso: string | null): string | null {
  if (!iso) return null;
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}
/** A picker's local `YYYY-MM-DD HH:mm[:ss]` as the instant the API takes (ISO, UTC); null when empty or not a time. */
export function localInputToIso(local: string | null): string | null {
  if (!local) return null;
  const d = new Date(local.trim().replace(' ', 'T'));
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

export type CurrencyRef = { code: string; dimension: number };
/** The amount filter's unit: the currencies it is read in and their one number of decimals. */
export type AmountUnit = { codes: string[]; dimension: number };

/**
 * How the amount range is typed. The API compares minor units whatever the currency, so a major amount means one
 * thing only when every currency in view has the same decimals: the chosen account's, else those of the accounts in
 * view (the provider's, or all), else (the accounts unknown to this user) every currency. Null: they differ, and the
 * range is typed in minor units until an account is chosen.
 */
export function amountUnit(
  scope: { accountId: number | null; providerName: string | null },
  accounts: readonly { id: number; providerName: string; currency: string }[] | null,
  currencies: readonly CurrencyRef[],
): AmountUnit | null {
  let codes: string[];
  if (accounts) {
    const chosen = scope.accountId === null ? undefined : accounts.find((a) => a.id === scope.accountId);
    const inView = chosen
      ? [chosen]
      : accounts.filter((a) => scope.providerName === null || a.providerName === scope.providerName);
    codes = inView.map((a) => a.currency);
  } else {
    codes = currencies.map((c) => c.code);
  }
  codes = [...new Set(codes)].sort();
  const dims = new Set(codes.map((code) => currencies.find((c) => c.code === code)?.dimension));
  if (codes.length === 0 || dims.size !== 1) return null;
  const [dimension] = dims;
  return dimension === undefined ? null : { codes, dimension };
}

/** How long something has waited, the way an operator says it: "45 s", "12 min", "3 h 5 min", "2 d 4 h". */
export const formatAge = (sinceIso: string, now: number): string => durationText(now - new Date(sinceIso).getTime());
