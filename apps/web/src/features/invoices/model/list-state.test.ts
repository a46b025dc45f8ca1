import { describe, expect, it } from 'vitest';
import { encodeInvoiceCursor } from '@paydesk/contracts/invoices';
import { savedViewState } from '@paydesk/contracts/saved-views';
import {
  byPosition,
  changeListState,
  lastNumberedPage,
  listStateOf,
  parseListState,
  positionRange,
  showsView,
  toQuery,
  toSearchParams,
  viewStateOf,
} from './list-state';

describe('list state in the URL', () => {
  it('round-trips a filtered view', () => {
    const url =
      'search=FX-1&terminalId=0b7f6a8e-3c1d-4e2f-9a0b-1c2d3e4f5a6b&page=2&size=25&statusIds=1&statusIds=4&dateFrom=01%2F01%2F2026&dateTo=05%2F01%2F2026&flowType=DEPOSIT&sumFrom=100&sumTo=5000';
    const state = parseListState(new URLSearchParams(url));
    expect(state).toMatchObject({
      search: 'FX-1',
      page: 2,
      size: 25,
      statusIds: [1, 4],
      dateFrom: '01/01/2026',
      flowType: 'DEPOSIT',
      sumFrom: 100,
    });
    expect(parseListState(toSearchParams(state))).toEqual(state);
  });
  it('drops what is malformed: NaN, invalid dates, unknown statuses and sizes', () => {
    const state = parseListState(
      new URLSearchParams(
        'sumFrom=NaN&sumTo=1.5&dateFrom=31%2F02%2F2026&dateTo=Invalid&statusIds=9&statusIds=x&size=7&page=-1&flowType=x&terminalId=abc',
      ),
    );
    expect(state).toEqual({
      search: '',
      terminalId: '',
      page: 0,
      after: null,
      before: null,
      size: 10,
      statusIds: [],
      dateFrom: null,
      dateTo: null,
      lastStatusDate: null,
      flowType: null,
      sumFrom: null,
      sumTo: null,
    });
    expect(toSearchParams(state).toString()).toBe('');
  });
  it('the API query carries page and size; the CSV one does not', () => {
    const state = parseListState(new URLSearchParams('statusIds=2'));
    expect(toQuery(state)).toMatchObject({ page: 0, size: 10, statusIds: [2] });
    expect(toQuery(state, false)).not.toHaveProperty('page');
  });
  it('keeps a page number where the API answers it: past the numbered pages, the last of them', () => {
    expect(lastNumberedPage(10)).toBe(999);
    expect(lastNumberedPage(40)).toBe(249);
    expect(lastNumberedPage(15)).toBe(666);
    for (const size of [5, 10, 15, 25, 40]) expect(lastNumberedPage(size) * size).toBeLessThan(10_000);
    expect(parseListState(new URLSearchParams('page=250&size=40')).page).toBe(249);
    expect(parseListState(new URLSearchParams('page=99999999')).page).toBe(999);
    expect(parseListState(new URLSearchParams('page=998')).page).toBe(998);
  });
});

describe('paging by position (past the first 10,000 rows)', () => {
  const a = encodeInvoiceCursor({
    createdAt: '2026-03-01 10:00:00.123456+00',
    id: '0b7f6a8e-3c1d-4e2f-9a0b-1c2d3e4f5a6b',
  });
  const b = encodeInvoiceCursor({ createdAt: '2026-02-01 09:00:00+00', id: '1b7f6a8e-3c1d-4e2f-9a0b-1c2d3e4f5a6b' });

  it('round-trips a cursor in the URL with the filters; the API query carries it, the CSV and count ones do not', () => {
    const state = parseListState(new URLSearchParams(`statusIds=6&size=40&after=${a}`));
    expect(state).toMatchObject({ after: a, before: null, page: 0, size: 40, statusIds: [6] });
    expect(byPosition(state)).toBe(true);
    expect(toSearchParams(state).toString()).toBe(`size=40&after=${a}&statusIds=6`);
    expect(parseListState(toSearchParams(state))).toEqual(state);
    expect(toQuery(state)).toMatchObject({ page: 0, size: 40, after: a, before: null });
    expect(toQuery(state, false)).not.toHaveProperty('after');
    expect(toQuery(state, false)).not.toHaveProperty('before');
    const back = parseListState(new URLSearchParams(`before=${b}`));
    expect(back).toMatchObject({ after: null, before: b, page: 0 });
    expect(byPosition(parseListState(new URLSearchParams('page=3')))).toBe(false);
  });

  it('drops what is not a cursor, keeps one of two, and a cursor replaces the page number', () => {
    expect(parseListState(new URLSearchParams('after=nope&before=%3D%3D'))).toMatchObject({
      after: null,
      before: null,
    });
    expect(parseListState(new URLSearchParams(`after=${'A'.repeat(200)}`)).after).toBeNull();
    expect(parseListState(new URLSearchParams(`after=${a}&before=${b}`))).toMatchObject({ after: a, before: null });
    expect(parseListState(new URLSearchParams(`page=7&before=${b}`))).toMatchObject({ page: 0, before: b });
  });

  it('a new position replaces the other one; any other change goes back to numbered pages', () => {
    const atA = parseListState(new URLSearchParams(`statusIds=6&after=${a}`));
    expect(changeListState(atA, { before: b })).toMatchObject({ after: null, before: b, page: 0, statusIds: [6] });
    expect(changeListState(atA, { after: b })).toMatchObject({ after: b, before: null });
    const first = changeListState(atA, { page: 0 });
    expect(first).toMatchObject({ after: null, before: null, page: 0, statusIds: [6] });
    expect(toSearchParams(first).toString()).toBe('statusIds=6');
    expect(changeListState(atA, { size: 25, page: 0 })).toMatchObject({ after: null, size: 25 });
    expect(changeListState(atA, { search: 'X', page: 0 })).toMatchObject({ after: null, search: 'X' });
    expect(changeListState(atA, { statusIds: [4], page: 0 })).toMatchObject({ after: null, statusIds: [4] });
    expect(changeListState(atA, { terminalId: '0b7f6a8e-3c1d-4e2f-9a0b-1c2d3e4f5a6b', page: 0 }).after).toBeNull();
    // from a numbered page into positions: the page number goes
    const last = parseListState(new URLSearchParams('page=999'));
    expect(changeListState(last, { after: a })).toMatchObject({ page: 0, after: a });
  });

  it('says where a page by position is by what it holds, not by row numbers it cannot know', () => {
    const rows = [{ createdDate: '2026-03-01T10:05:59Z' }, { createdDate: '2026-02-27T23:01:00.5Z' }];
    expect(positionRange(rows)).toBe('Page by page · 2 rows, 27 Feb 2026 23:01 – 01 Mar 2026 10:05 UTC');
    expect(positionRange(rows.slice(0, 1))).toBe('Page by page · 1 row, 01 Mar 2026 10:05 UTC');
    expect(positionRange([rows[0]!, { createdDate: '2026-03-01T09:00:01Z' }])).toBe(
      'Page by page · 2 rows, 01 Mar 2026 09:00–10:05 UTC',
    );
    expect(positionRange([])).toBe('Page by page · nothing here');
  });
});

describe('saved views', () => {
  const url = 'search=FX-1&page=3&size=25&statusIds=4&statusIds=1&dateFrom=01%2F01%2F2026&flowType=DEPOSIT&sumTo=5000';
  it('keep everything but the page or position, in the shape the server accepts', () => {
    const view = viewStateOf(parseListState(new URLSearchParams(url)));
    expect(savedViewState.parse(view)).toEqual(view);
    expect(view).toMatchObject({ search: 'FX-1', statusIds: [1, 4], size: 25, terminalId: null, sumTo: 5000 });
    expect(listStateOf(view).page).toBe(0);
    const cursor = encodeInvoiceCursor({
      createdAt: '2026-03-01 10:00:00+00',
      id: '0b7f6a8e-3c1d-4e2f-9a0b-1c2d3e4f5a6b',
    });
    const deep = parseListState(new URLSearchParams(`${url.replace('page=3&', '')}&after=${cursor}`));
    expect(viewStateOf(deep)).toEqual(view);
    expect(savedViewState.parse(viewStateOf(deep))).toEqual(view);
    expect(listStateOf(view)).toMatchObject({ page: 0, after: null, before: null });
    expect(showsView(deep, view)).toBe(true);
  });
  it('tell which view the list shows, on any page, whatever the order of statuses', () => {
    const view = viewStateOf(parseListState(new URLSearchParams(url)));
    expect(showsView(parseListState(new URLSearchParams(url.replace('page=3', 'page=0'))), view)).toBe(true);
    expect(
      showsView(
        parseListState(new URLSearchParams(url.replace('statusIds=4&statusIds=1', 'statusIds=1&statusIds=4'))),
        view,
      ),
    ).toBe(true);
    expect(showsView(parseListState(new URLSearchParams(url.replace('size=25', 'size=40'))), view)).toBe(false);
    expect(showsView(parseListState(new URLSearchParams('')), savedViewState.parse({}))).toBe(true);
  });
});
