import { describe, expect, it } from 'vitest';
import {
  bucketMinutesFor,
  minutesSinceUtcMidnight,
  percentOf,
  periodMinutes,
  successLevel,
  terminalStatisticQuery,
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
    expect(successLevel(100, 60, 85, false)).toBe('none');
    expect(successLevel(50, null, null)).toBe('none');
    expect(successLevel(50, 60, null)).toBe('low');
    expect(successLevel(70, 60, null)).toBe('high');
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
