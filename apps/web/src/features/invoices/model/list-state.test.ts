import { describe, expect, it } from 'vitest';
import { savedViewState } from '@paydesk/contracts/saved-views';
import { listStateOf, parseListState, showsView, toQuery, toSearchParams, viewStateOf } from './list-state';

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
});

describe('saved views', () => {
  const url = 'search=FX-1&page=3&size=25&statusIds=4&statusIds=1&dateFrom=01%2F01%2F2026&flowType=DEPOSIT&sumTo=5000';
  it('keep everything but the page, in the shape the server accepts', () => {
    const view = viewStateOf(parseListState(new URLSearchParams(url)));
    expect(savedViewState.parse(view)).toEqual(view);
    expect(view).toMatchObject({ search: 'FX-1', statusIds: [1, 4], size: 25, terminalId: null, sumTo: 5000 });
    expect(listStateOf(view).page).toBe(0);
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
