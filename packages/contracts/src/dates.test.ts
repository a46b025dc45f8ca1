import { describe, expect, it } from 'vitest';
import { ddMmYyyySchema } from './day-schema';
import {
  ddMmYyyyToIsoDay,
  formatDateLong,
  formatDateShort,
  formatDdMmYyyy,
  isoDayToDdMmYyyy,
  parseDdMmYyyy,
  utcDayRange,
} from './dates';

describe('dd/MM/yyyy', () => {
  it('parses real calendar days only', () => {
    expect(parseDdMmYyyy('21/11/2026')).toEqual({ year: 2026, month: 11, day: 21 });
    expect(parseDdMmYyyy('29/02/2024')).toEqual({ year: 2024, month: 2, day: 29 });
    for (const bad of [
      '29/02/2026',
      '31/04/2026',
      '00/01/2026',
      '01/13/2026',
      '1/1/2026',
      '2026-11-21',
      '21/11/26',
      '',
      'NaN',
      '21/11/2026 ',
    ]) {
      expect(parseDdMmYyyy(bad), bad).toBeNull();
    }
  });
  it('converts to and from the ISO day of date pickers', () => {
    expect(isoDayToDdMmYyyy('2026-01-05')).toBe('05/01/2026');
    expect(ddMmYyyyToIsoDay('05/01/2026')).toBe('2026-01-05');
    expect(isoDayToDdMmYyyy('2026-02-30')).toBeNull();
    expect(ddMmYyyyToIsoDay('invalid')).toBeNull();
    expect(formatDdMmYyyy({ year: 2026, month: 3, day: 9 })).toBe('09/03/2026');
  });
  it('gives the UTC day as [start, end)', () => {
    const { start, end } = utcDayRange({ year: 2026, month: 12, day: 31 });
    expect(start.toISOString()).toBe('2026-12-31T00:00:00.000Z');
    expect(end.toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });
  it('the zod schema refuses what the parser refuses', () => {
    expect(ddMmYyyySchema.safeParse('01/01/2026').success).toBe(true);
    expect(ddMmYyyySchema.safeParse('32/01/2026').success).toBe(false);
  });
});

describe('display formats (UTC)', () => {
  it('long dd MMM yyyy HH:mm:ss and short dd/MM/yyyy HH:mm:ss', () => {
    expect(formatDateLong('2026-11-21T05:19:30.123Z')).toBe('21 Nov 2026 05:19:30');
    expect(formatDateShort('2026-11-21T05:19:30.123Z')).toBe('21/11/2026 05:19:30');
    expect(formatDateLong(new Date('2026-01-02T23:59:59+03:00'))).toBe('02 Jan 2026 20:59:59');
    expect(formatDateLong('not a date')).toBe('');
    expect(formatDateShort(Number.NaN)).toBe('');
  });
});

describe('UTC times and days for the back-office', () => {
  it('formats HH:mm and HH:mm:ss in UTC, whatever the time zone', async () => {
    const { formatUtcTime, utcIsoDay } = await import('./dates');
    expect(formatUtcTime('2026-11-23T04:05:06.789Z')).toBe('04:05');
    expect(formatUtcTime(Date.parse('2026-11-23T23:59:59Z'), true)).toBe('23:59:59');
    expect(formatUtcTime('not a date')).toBe('');
    const now = new Date('2026-03-01T00:30:00Z');
    expect(utcIsoDay(0, now)).toBe('2026-03-01');
    expect(utcIsoDay(-6, now)).toBe('2026-02-23');
  });
});
