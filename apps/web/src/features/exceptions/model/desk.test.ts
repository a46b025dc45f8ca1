import { describe, expect, it } from 'vitest';
import {
  NO_FILTERS,
  amountUnit,
  deskFilterQuery,
  formatAge,
  hasDeskFilters,
  isoToLocalInput,
  localInputToIso,
  parseDeskState,
  toDeskSearchParams,
  withFilters,
  type DeskState,
} from './desk';

const parse = (query: string) => parseDeskState(new URLSearchParams(query));

describe('the desk state in the URL', () => {
  it('defaults to the unmatched money still to resolve, and round-trips what it was given', () => {
    expect(parseDeskState(new URLSearchParams())).toEqual({
      tab: 'unmatched',
      status: 'UNMATCHED',
      after: null,
      ...NO_FILTERS,
    });
    const s: DeskState = { ...NO_FILTERS, tab: 'contradictions', status: 'ALL', after: '2026-11-27T01:00:00.000Z_12' };
    expect(parseDeskState(toDeskSearchParams(s))).toEqual(s);
    expect(toDeskSearchParams(parseDeskState(new URLSearchParams())).toString()).toBe('');
  });
  it('ignores what it does not know', () => {
    expect(parse('tab=nope&status=LOST')).toEqual({
      tab: 'unmatched',
      status: 'UNMATCHED',
      after: null,
      ...NO_FILTERS,
    });
  });
});

describe('the filters in the URL', () => {
  const unmatched: DeskState = {
    ...NO_FILTERS,
    tab: 'unmatched',
    status: 'ALL',
    after: null,
    providerId: 3,
    accountId: 12,
    amountFrom: 710_053,
    amountTo: 720_053,
    from: '2026-11-27T08:00:00.000Z',
    to: '2026-11-28T08:00:00.000Z',
  };

  it("unmatched money's filters round-trip, as the API's own values (minor units, ISO instants)", () => {
    const sp = toDeskSearchParams(unmatched);
    expect(Object.fromEntries(sp)).toEqual({
      status: 'ALL',
      providerId: '3',
      accountId: '12',
      amountFrom: '710053',
      amountTo: '720053',
      from: '2026-11-27T08:00:00.000Z',
      to: '2026-11-28T08:00:00.000Z',
    });
    expect(parseDeskState(sp)).toEqual(unmatched);
    expect(deskFilterQuery(unmatched)).toEqual({
      providerId: 3,
      accountId: 12,
      amountFrom: 710_053,
      amountTo: 720_053,
      from: '2026-11-27T08:00:00.000Z',
      to: '2026-11-28T08:00:00.000Z',
    });
  });

  it('a stuck tab keeps its merchant; 0 is an amount, an offset is spelled in UTC', () => {
    const merchant = '6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a6b';
    const s: DeskState = { ...NO_FILTERS, tab: 'payouts', status: 'UNMATCHED', after: null, merchant };
    expect(toDeskSearchParams(s).toString()).toBe(`tab=payouts&merchant=${merchant}`);
    expect(parseDeskState(toDeskSearchParams(s))).toEqual(s);
    expect(deskFilterQuery(s)).toEqual({ merchant });
    expect(parse('amountFrom=0').amountFrom).toBe(0);
    expect(parse('from=2026-11-27T13:00:00%2B05:00').from).toBe('2026-11-27T08:00:00.000Z');
  });

  it.each([
    ['providerId=0', 'providerId'],
    ['providerId=abc', 'providerId'],
    ['accountId=-4', 'accountId'],
    ['accountId=1.5', 'accountId'],
    ['accountId=99999999999', 'accountId'],
    ['amountFrom=12.5', 'amountFrom'],
    ['amountFrom=-1', 'amountFrom'],
    ['amountTo=lots', 'amountTo'],
    ['amountTo=', 'amountTo'],
    ['from=yesterday', 'from'],
    ['to=2026-11-27', 'to'],
    ['tab=payed&merchant=not-a-uuid', 'merchant'],
  ] as const)('%s is ignored', (query, key) => {
    expect(parse(query)[key]).toBeNull();
    expect(toDeskSearchParams(parse(query)).has(key)).toBe(false);
  });

  it("drops a filter the tab does not have, and a range's far end the wrong way round", () => {
    const merchant = '6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a6b';
    expect(parse(`merchant=${merchant}`).merchant).toBeNull();
    expect(parse('tab=payed&accountId=12&amountFrom=5').accountId).toBeNull();
    expect(parse(`tab=contradictions&merchant=${merchant}`).merchant).toBeNull();
    expect(toDeskSearchParams(parse('tab=callbacks&providerId=3')).toString()).toBe('tab=callbacks');
    const reversed = parse('amountFrom=500&amountTo=400&from=2026-11-28T00:00:00Z&to=2026-11-27T00:00:00Z');
    expect(reversed).toMatchObject({ amountFrom: 500, amountTo: null, from: '2026-11-28T00:00:00.000Z', to: null });
    expect(parse('from=2026-11-27T00:00:00Z&to=2026-11-27T00:00:00Z').to).toBeNull();
  });

  it('changing a filter goes back to the first page; the desk knows when there is something to clear', () => {
    const paged = parse('accountId=12&after=2026-11-27T01:00:00.000Z_5f0e');
    expect(paged.after).not.toBeNull();
    expect(hasDeskFilters(paged)).toBe(true);
    const changed = withFilters(paged, { amountFrom: 100 });
    expect(changed).toMatchObject({ accountId: 12, amountFrom: 100, after: null });
    const cleared = withFilters(changed, NO_FILTERS);
    expect(hasDeskFilters(cleared)).toBe(false);
    expect(toDeskSearchParams(cleared).toString()).toBe('');
    // a stuck tab's merchant counts only on a stuck tab
    expect(hasDeskFilters({ ...cleared, merchant: '6f1c2a9e-3b4d-4e5f-8a7b-1c2d3e4f5a6b' })).toBe(false);
  });

  it("a picker's local time and the URL's instant convert both ways", () => {
    const iso = '2026-11-27T08:30:00.000Z';
    expect(localInputToIso(isoToLocalInput(iso))).toBe(iso);
    expect(isoToLocalInput(null)).toBeNull();
    expect(localInputToIso('')).toBeNull();
    expect(localInputToIso('not a time')).toBeNull();
  });
});

describe('the unit the amount range is typed in', () => {
  const currencies = [
    { code: 'UZS', dimension: 2 },
    { code: 'RUB', dimension: 2 },
    { code: 'USDT', dimension: 6 },
  ];
  const accounts = [
    { id: 1, providerName: 'Alpha', currency: 'UZS' },
    { id: 2, providerName: 'Alpha', currency: 'RUB' },
    { id: 3, providerName: 'Beta', currency: 'USDT' },
  ];
  const none = { accountId: null, providerName: null };
  it("is the chosen account's currency", () => {
    expect(amountUnit({ ...none, accountId: 3 }, accounts, currencies)).toEqual({ codes: ['USDT'], dimension: 6 });
    expect(amountUnit({ accountId: 1, providerName: 'Beta' }, accounts, currencies)).toEqual({
      codes: ['UZS'],
      dimension: 2,
    });
  });
  it('else those of the accounts in view when their decimals agree; else none (minor units)', () => {
    expect(amountUnit({ ...none, providerName: 'Alpha' }, accounts, currencies)).toEqual({
      codes: ['RUB', 'UZS'],
      dimension: 2,
    });
    expect(amountUnit(none, accounts, currencies)).toBeNull();
    expect(amountUnit(none, accounts.slice(0, 2), currencies)).toEqual({ codes: ['RUB', 'UZS'], dimension: 2 });
    expect(amountUnit({ ...none, providerName: 'Gamma' }, accounts, currencies)).toBeNull();
  });
  it('without the accounts (a role that may not read them): every currency', () => {
    expect(amountUnit({ ...none, accountId: 1 }, null, currencies)).toBeNull();
    expect(amountUnit(none, null, currencies.slice(0, 2))).toEqual({ codes: ['RUB', 'UZS'], dimension: 2 });
  });
});

describe('formatAge', () => {
  const now = Date.parse('2026-11-27T12:00:00Z');
  const ago = (s: number) => new Date(now - s * 1000).toISOString();
  it.each([
    [0, '0 s'],
    [59, '59 s'],
    [60, '1 min'],
    [3599, '59 min'],
    [3600, '1 h'],
    [3600 + 5 * 60, '1 h 5 min'],
    [86400, '1 d'],
    [86400 * 2 + 3600 * 4, '2 d 4 h'],
  ])('%i s ago reads %s', (s, text) => expect(formatAge(ago(s), now)).toBe(text));
  it('a time in the future (clock skew) reads 0 s', () => expect(formatAge(ago(-30), now)).toBe('0 s'));
});
