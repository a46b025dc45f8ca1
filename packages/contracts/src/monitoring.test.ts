import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  bucketMinutesFor,
  minutesSinceUtcMidnight,
  outcomeRates,
  percentOf,
  periodMinutes,
  successLevel,
  successRate,
  terminalStatisticQuery,
  terminalStatItem,
} from './monitoring';

describe('monitoring helpers', () => {
  it('percentOf: one decimal, 0 when there is nothing', () => {
    expect(percentOf(1, 3)).toBe(33.3);
    expect(percentOf(2, 3)).toBe(66.7);
    expect(percentOf(1, 8)).toBe(12.5);
    expect(percentOf(0, 0)).toBe(0);
    expect(percentOf(5, 5)).toBe(100);
  });

  it('successLevel: red below low, amber between, green at or above high', () => {
    expect(successLevel(59.9, 60, 85)).toBe('low');
    expect(successLevel(60, 60, 85)).toBe('mid');
    expect(successLevel(84.9, 60, 85)).toBe('mid');
    expect(successLevel(85, 60, 85)).toBe('high');
    expect(successLevel(null, 60, 85)).toBe('none');
    expect(successLevel(50, null, null)).toBe('none');
    expect(successLevel(50, 60, null)).toBe('low');
    expect(successLevel(70, 60, null)).toBe('high');
  });

  it('rates are shares of the finished invoices; undefined (null) while none has finished, never 0', () => {
    // all NEW: nothing has finished, so there is no rate to colour red
    expect(outcomeRates({ successCount: 0, cancelCount: 0, declinedCount: 0 })).toEqual({
      successPercent: null,
      cancelPercent: null,
      declinedPercent: null,
    });
    expect(
      successLevel(outcomeRates({ successCount: 0, cancelCount: 0, declinedCount: 0 }).successPercent, 60, 85),
    ).toBe('none');
    // 4 done, 1 canceled, 1 declined (and any number still under way): of 6 finished
    expect(outcomeRates({ successCount: 4, cancelCount: 1, declinedCount: 1 })).toEqual({
      successPercent: 66.7,
      cancelPercent: 16.7,
      declinedPercent: 16.7,
    });
    // one failure is a real 0 %
    expect(outcomeRates({ successCount: 0, cancelCount: 0, declinedCount: 1 }).successPercent).toBe(0);
    expect(successRate(0, 0)).toBeNull();
    expect(successRate(2, 3)).toBe(66.7);
  });

  it('the response schema takes a null rate and documents it', () => {
    const item = {
      terminalId: '00000000-0000-4000-8000-000000000000',
      name: 'All new',
      enable: true,
      total: 3,
      newCount: 3,
      successCount: 0,
      successPercent: null,
      cancelCount: 0,
      cancelPercent: null,
      declinedCount: 0,
      declinedPercent: null,
      successPercentLowThreshold: 60,
      successPercentHighThreshold: 85,
      bucketMinutes: 5,
      series: [{ t: '2030-01-15T10:00:00Z', total: 3, successCount: 0, finishedCount: 0, successPercent: null }],
    };
    expect(terminalStatItem.parse(item)).toEqual(item);
    const json = z.toJSONSchema(terminalStatItem, { io: 'output' }) as {
      properties: Record<string, { description?: string }>;
    };
    expect(json.properties.successPercent!.description).toMatch(/null when none has/);
  });

  it('"from day start" is the minutes since UTC midnight, at least 1', () => {
    expect(minutesSinceUtcMidnight(new Date('2026-11-21T00:00:00Z'))).toBe(1);
    expect(minutesSinceUtcMidnight(new Date('2026-11-21T05:30:10Z'))).toBe(331);
    expect(periodMinutes(0, new Date('2026-11-21T01:00:00Z'))).toBe(60);
    expect(periodMinutes(180, new Date())).toBe(180);
  });

  it('minutes query: 1..1440 whole minutes', () => {
    expect(terminalStatisticQuery.parse({ minutes: '60' })).toEqual({ minutes: 60 });
    for (const minutes of ['0', '1441', '1.5', 'x'])
      expect(terminalStatisticQuery.safeParse({ minutes }).success).toBe(false);
  });
  it('bucket size suits the period: 5 min for 1 h, 15 min for 3 h, hourly for a day', () => {
    expect(bucketMinutesFor(1)).toBe(5);
    expect(bucketMinutesFor(60)).toBe(5);
    expect(bucketMinutesFor(61)).toBe(15);
    expect(bucketMinutesFor(180)).toBe(15);
    expect(bucketMinutesFor(360)).toBe(30);
    expect(bucketMinutesFor(361)).toBe(60);
    expect(bucketMinutesFor(1440)).toBe(60);
    for (const m of [1, 60, 180, 300, 600, 1440]) {
      const points = Math.ceil(m / bucketMinutesFor(m));
      expect(1440 % bucketMinutesFor(m)).toBe(0);
      if (m >= 60) expect(points).toBeGreaterThanOrEqual(8);
      expect(points).toBeLessThanOrEqual(24);
    }
  });
});
