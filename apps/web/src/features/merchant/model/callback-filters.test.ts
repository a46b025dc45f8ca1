import { describe, expect, it } from 'vitest';
import {
  formatRate,
  parseCallbacksState,
  replayDuration,
  toCallbacksSearchParams,
  toDeliveryFilter,
  type CallbacksState,
} from './callback-filters';

const INVOICE = '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f';

describe('the Merchant page state in the URL', () => {
  it('defaults to the profile with no filter, and round-trips what it was given', () => {
    const empty = parseCallbacksState(new URLSearchParams());
    expect(empty).toEqual({
      tab: 'profile',
      status: null,
      type: null,
      fromDay: null,
      toDay: null,
      invoiceId: null,
      after: null,
    });
    expect(toCallbacksSearchParams(empty).toString()).toBe('');
    const s: CallbacksState = {
      tab: 'callbacks',
      status: 'FAILED',
      type: 'invoice.status',
      fromDay: '2026-11-20',
      toDay: '2026-11-21',
      invoiceId: INVOICE,
      after: `2026-11-20T10:00:00.123456Z_${INVOICE}`,
    };
    expect(parseCallbacksState(toCallbacksSearchParams(s))).toEqual(s);
  });

  it('drops what the API would refuse instead of sending it', () => {
    expect(
      parseCallbacksState(
        new URLSearchParams(
          'tab=keys&status=LOST&type=invoice.deleted&from=2026-02-30&to=yesterday&invoiceId=42&after=page-2',
        ),
      ),
    ).toEqual({ tab: 'profile', status: null, type: null, fromDay: null, toDay: null, invoiceId: null, after: null });
    // a range that ends before it starts keeps its start only
    const backwards = parseCallbacksState(new URLSearchParams('tab=callbacks&from=2026-11-21&to=2026-11-20'));
    expect([backwards.fromDay, backwards.toDay]).toEqual(['2026-11-21', null]);
  });

  it('sends days as the range from the first day’s start to the last day’s end (UTC)', () => {
    expect(
      toDeliveryFilter({ status: 'FAILED', type: null, fromDay: '2026-11-20', toDay: '2026-11-21', invoiceId: null }),
    ).toEqual({ status: 'FAILED', from: '2026-11-20T00:00:00.000Z', to: '2026-11-22T00:00:00.000Z' });
    expect(toDeliveryFilter({ status: null, type: null, fromDay: null, toDay: null, invoiceId: INVOICE })).toEqual({
      invoiceId: INVOICE,
    });
  });
});

describe('figures in words', () => {
  it('rates and replay durations', () => {
    expect(formatRate(null)).toBeNull();
    expect(formatRate(1)).toBe('100 %');
    expect(formatRate(0.975)).toBe('97.5 %');
    expect(formatRate(2 / 3)).toBe('66.7 %');
    expect(replayDuration(30, 10)).toBe('less than a minute');
    expect(replayDuration(5614, 10)).toBe('about 9 min');
    expect(replayDuration(5614, 100)).toBe('less than a minute');
    expect(replayDuration(100_000, 10)).toBe('about 2.8 h');
  });
});
