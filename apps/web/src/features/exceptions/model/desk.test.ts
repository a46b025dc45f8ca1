import { describe, expect, it } from 'vitest';
import { formatAge, parseDeskState, toDeskSearchParams } from './desk';

describe('the desk state in the URL', () => {
  it('defaults to the unmatched money still to resolve, and round-trips what it was given', () => {
    expect(parseDeskState(new URLSearchParams())).toEqual({ tab: 'unmatched', status: 'UNMATCHED', after: null });
    const s = { tab: 'contradictions', status: 'ALL', after: '2026-11-27T01:00:00.000Z_12' } as const;
    expect(parseDeskState(toDeskSearchParams(s))).toEqual(s);
    expect(toDeskSearchParams(parseDeskState(new URLSearchParams())).toString()).toBe('');
  });
  it('ignores what it does not know', () => {
    expect(parseDeskState(new URLSearchParams('tab=nope&status=LOST'))).toEqual({
      tab: 'unmatched',
      status: 'UNMATCHED',
      after: null,
    });
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
