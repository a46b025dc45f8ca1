import { isUuid } from '@paydesk/contracts/uuid';
import { formatDateLong, parseDdMmYyyy } from '@paydesk/contracts/dates';
import {
  INVOICE_DEFAULT_PAGE_SIZE,
  INVOICE_PAGE_SIZES,
  INVOICE_SEARCH_MAX,
  INVOICE_TOTAL_CAP,
  decodeInvoiceCursor,
} from '@paydesk/contracts/invoice-list';
import type { Invoice } from '@paydesk/contracts/invoices';
import { FLOW_TYPES, statusById, type FlowType } from '@paydesk/contracts/statuses';
import type { SavedViewState } from '@paydesk/contracts/saved-views';
import type { QueryParams } from '../../../lib/api';

/**
 * The list's filters and page as they live in the URL (so a view can be bookmarked and shared).
 * The URL carries exactly the API's values: dd/MM/yyyy days, status ids, minor-unit sums.
 * Anything malformed in a hand-edited URL is dropped, never sent.
 */
export type InvoiceFilters = {
  statusIds: number[];
  dateFrom: string | null;
  dateTo: string | null;
  lastStatusDate: string | null;
  flowType: FlowType | null;
  sumFrom: number | null;
  sumTo: number | null;
};

/**
 * Where the list is: a page number (the first INVOICE_TOTAL_CAP rows), or, past them, a position (keyset cursor of
 * the API): `after` = the rows older than a row (its nextCursor), `before` = the rows newer than it (prevCursor).
 * At most one cursor; with one, page is 0.
 */
type ListPosition = { page: number; after: string | null; before: string | null };

export type ListState = InvoiceFilters & ListPosition & { search: string; terminalId: string; size: number };

export const EMPTY_FILTERS: InvoiceFilters = {
  statusIds: [],
  dateFrom: null,
  dateTo: null,
  lastStatusDate: null,
  flowType: null,
  sumFrom: null,
  sumTo: null,
};

const day = (v: string | null) => (v && parseDdMmYyyy(v) ? v : null);
const minor = (v: string | null) => {
  if (v === null || !/^\d+$/.test(v)) return null;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : null;
};
const int = (v: string | null, fallback: number) => (v !== null && /^\d+$/.test(v) ? Number(v) : fallback);
/** A cursor as the API gave it (an opaque token it can read back); anything else is dropped. */
const cursor = (v: string | null) => (v && v.length <= 120 && decodeInvoiceCursor(v) ? v : null);

/** The last page number the API answers for a size: page × size stays under the capped total. */
export const lastNumberedPage = (size: number) => Math.ceil(INVOICE_TOTAL_CAP / size) - 1;

/** The list is paged by position (past the numbered pages). */
export const byPosition = (s: Pick<ListState, 'after' | 'before'>) => s.after !== null || s.before !== null;

export function parseListState(sp: URLSearchParams): ListState {
  const size = int(sp.get('size'), INVOICE_DEFAULT_PAGE_SIZE);
  const flow = sp.get('flowType');
  const terminalId = sp.get('terminalId') ?? '';
  const validSize = (INVOICE_PAGE_SIZES as readonly number[]).includes(size) ? size : INVOICE_DEFAULT_PAGE_SIZE;
  // one cursor at most (after wins); a position replaces the page number
  const after = cursor(sp.get('after'));
  const before = after ? null : cursor(sp.get('before'));
  return {
    search: (sp.get('search') ?? '').slice(0, INVOICE_SEARCH_MAX),
    terminalId: isUuid(terminalId) ? terminalId : '',
    // a hand-edited page past the numbered ones opens the last of them (the API refuses the rest)
    page: after || before ? 0 : Math.min(int(sp.get('page'), 0), lastNumberedPage(validSize)),
    after,
    before,
    size: validSize,
    statusIds: [...new Set(sp.getAll('statusIds').map(Number))].filter((id) => Number.isInteger(id) && statusById(id)),
    dateFrom: day(sp.get('dateFrom')),
    dateTo: day(sp.get('dateTo')),
    lastStatusDate: day(sp.get('lastStatusDate')),
    flowType: (FLOW_TYPES as readonly string[]).includes(flow ?? '') ? (flow as FlowType) : null,
    sumFrom: minor(sp.get('sumFrom')),
    sumTo: minor(sp.get('sumTo')),
  };
}

/**
 * Query values of a state; empty ones are dropped by the api client. Without the page (and position): the
 * filters alone, as the CSV export and the exact count take them.
 */
export function toQuery(s: ListState, withPage = true): QueryParams {
  return {
    ...(withPage ? { page: s.page, size: s.size, after: s.after, before: s.before } : {}),
    search: s.search.trim(),
    terminalId: s.terminalId,
    statusIds: s.statusIds,
    dateFrom: s.dateFrom,
    dateTo: s.dateTo,
    lastStatusDate: s.lastStatusDate,
    flowType: s.flowType,
    sumFrom: s.sumFrom,
    sumTo: s.sumTo,
  };
}

/** The URL of a state, without defaults (page 0, size 10, no cursor). */
export function toSearchParams(s: ListState): URLSearchParams {
  const q = toQuery(s);
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) {
    if (k === 'page' && v === 0) continue;
    if (k === 'size' && v === INVOICE_DEFAULT_PAGE_SIZE) continue;
    for (const x of Array.isArray(v) ? v : [v]) {
      if (x === null || x === undefined || x === '') continue;
      sp.append(k, String(x));
    }
  }
  return sp;
}

/**
 * The state after a change: a change of anything but the position (filters, search, terminal, size, page number)
 * leaves paging by position, back to numbered pages; a new position replaces the other cursor and the page number.
 */
export function changeListState(prev: ListState, next: Partial<ListState>): ListState {
  if ('after' in next || 'before' in next) {
    const after = next.after ?? null;
    return { ...prev, ...next, page: 0, after, before: after ? null : (next.before ?? null) };
  }
  return { ...prev, after: null, before: null, ...next };
}

/** A row's creation time to the minute (UTC): the table's format without the seconds. */
const minuteOf = (iso: string) => formatDateLong(iso).slice(0, -3);

/**
 * Where a page by position is, in words. Its rows are counted from no numbered start (rows arrive and the cap hides
 * the rest), so it says what it holds (how many rows, created when), not "rows 10,001–10,040 of 10,000+".
 */
export function positionRange(rows: readonly Pick<Invoice, 'createdDate'>[]): string {
  if (!rows.length) return 'Page by page · nothing here';
  const newest = minuteOf(rows[0]!.createdDate);
  const oldest = minuteOf(rows.at(-1)!.createdDate);
  // "30 Aug 2026 11:57–17:02" within a day
  const sameDay = newest.slice(0, -6) === oldest.slice(0, -6);
  const span = newest === oldest ? newest : sameDay ? `${oldest}–${newest.slice(-5)}` : `${oldest} – ${newest}`;
  return `Page by page · ${rows.length} ${rows.length === 1 ? 'row' : 'rows'}, ${span} UTC`;
}

export const activeFilterCount = (f: InvoiceFilters) =>
  (f.statusIds.length ? 1 : 0) +
  [f.dateFrom, f.dateTo, f.lastStatusDate, f.flowType, f.sumFrom, f.sumTo].filter((v) => v !== null).length;

/** What a saved view keeps of the list: everything but the page or position (a view opens on its first page). */
export const viewStateOf = ({
  page: _page,
  after: _after,
  before: _before,
  search,
  terminalId,
  statusIds,
  ...rest
}: ListState): SavedViewState => ({
  ...rest,
  search: search.trim(),
  terminalId: terminalId || null,
  statusIds: [...statusIds].sort((a, b) => a - b),
});

/** The list state a saved view opens: its filters on page 0. */
export const listStateOf = (v: SavedViewState): ListState => ({
  ...v,
  terminalId: v.terminalId ?? '',
  page: 0,
  after: null,
  before: null,
});

/** The list shows exactly this view (any page of it). */
export const showsView = (s: ListState, v: SavedViewState) =>
  toSearchParams(listStateOf(viewStateOf(s))).toString() === toSearchParams(listStateOf(v)).toString();
