import { isUuid } from '@paydesk/contracts/common';
import { parseDdMmYyyy } from '@paydesk/contracts/dates';
import { INVOICE_DEFAULT_PAGE_SIZE, INVOICE_PAGE_SIZES, INVOICE_SEARCH_MAX } from '@paydesk/contracts/invoices';
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

export type ListState = InvoiceFilters & { search: string; terminalId: string; page: number; size: number };

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

export function parseListState(sp: URLSearchParams): ListState {
  const size = int(sp.get('size'), INVOICE_DEFAULT_PAGE_SIZE);
  const flow = sp.get('flowType');
  const terminalId = sp.get('terminalId') ?? '';
  return {
    search: (sp.get('search') ?? '').slice(0, INVOICE_SEARCH_MAX),
    terminalId: isUuid(terminalId) ? terminalId : '',
    page: Math.min(int(sp.get('page'), 0), 1_000_000),
    size: (INVOICE_PAGE_SIZES as readonly number[]).includes(size) ? size : INVOICE_DEFAULT_PAGE_SIZE,
    statusIds: [...new Set(sp.getAll('statusIds').map(Number))].filter((id) => Number.isInteger(id) && statusById(id)),
    dateFrom: day(sp.get('dateFrom')),
    dateTo: day(sp.get('dateTo')),
    lastStatusDate: day(sp.get('lastStatusDate')),
    flowType: (FLOW_TYPES as readonly string[]).includes(flow ?? '') ? (flow as FlowType) : null,
    sumFrom: minor(sp.get('sumFrom')),
    sumTo: minor(sp.get('sumTo')),
  };
}

/** Query values of a state; empty ones are dropped by the api client (SPEC §5). */
export function toQuery(s: ListState, withPage = true): QueryParams {
  return {
    ...(withPage ? { page: s.page, size: s.size } : {}),
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

/** The URL of a state, without defaults (page 0, size 10). */
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

export const activeFilterCount = (f: InvoiceFilters) =>
  (f.statusIds.length ? 1 : 0) +
  [f.dateFrom, f.dateTo, f.lastStatusDate, f.flowType, f.sumFrom, f.sumTo].filter((v) => v !== null).length;

/** What a saved view keeps of the list: everything but the page (a view opens on its first page). */
export const viewStateOf = ({ page: _page, search, terminalId, statusIds, ...rest }: ListState): SavedViewState => ({
  ...rest,
  search: search.trim(),
  terminalId: terminalId || null,
  statusIds: [...statusIds].sort((a, b) => a - b),
});

/** The list state a saved view opens: its filters on page 0. */
export const listStateOf = (v: SavedViewState): ListState => ({ ...v, terminalId: v.terminalId ?? '', page: 0 });

/** The list shows exactly this view (any page of it). */
export const showsView = (s: ListState, v: SavedViewState) =>
  toSearchParams(listStateOf(viewStateOf(s))).toString() === toSearchParams(listStateOf(v)).toString();
