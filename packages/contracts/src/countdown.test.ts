import { describe, expect, it } from 'vitest';
import { countdownDeadline, countdownParts, formatCountdown, secondsLeft } from './countdown';

describe('countdown', () => {
  it('anchors the deadline to the monotonic clock', () => {
    const deadline = countdownDeadline(90, 1_000);
    expect(deadline).toBe(91_000);
    expect(secondsLeft(deadline, 1_000)).toBe(90);
    expect(secondsLeft(deadline, 1_001)).toBe(90);
    expect(secondsLeft(deadline, 2_000)).toBe(89);
    expect(secondsLeft(deadline, 91_000)).toBe(0);
    expect(secondsLeft(deadline, 500_000)).toBe(0);
    expect(countdownDeadline(-5, 10)).toBe(10);
  });

  it('formats HH:MM:SS up to a day', () => {
    expect(formatCountdown(0)).toBe('00:00:00');
    expect(formatCountdown(59)).toBe('00:00:59');
    expect(formatCountdown(3_599)).toBe('00:59:59');
    expect(formatCountdown(3_600)).toBe('01:00:00');
    expect(formatCountdown(86_400)).toBe('24:00:00');
  });

  it('shows days when more than a day remains', () => {
    expect(formatCountdown(86_401)).toBe('1d 00:00:01');
    expect(formatCountdown(2 * 86_400 + 3 * 3_600 + 4 * 60 + 5)).toBe('2d 03:04:05');
    expect(countdownParts(2 * 86_400 + 5)).toMatchObject({ days: 2, showDays: true, clock: '00:00:05' });
  });

  it('is urgent only when no hours and no minutes remain, and expired at zero', () => {
    const at = (seconds: number) => countdownParts(seconds);
    expect(at(3_600)).toMatchObject({ clock: '01:00:00', urgent: false });
    expect(at(3_599)).toMatchObject({ clock: '00:59:59', urgent: false });
    expect(at(1_800)).toMatchObject({ clock: '00:30:00', urgent: false });
    expect(at(60)).toMatchObject({ clock: '00:01:00', urgent: false });
    expect(at(59)).toMatchObject({ clock: '00:00:59', urgent: true });
    expect(at(1)).toMatchObject({ clock: '00:00:01', urgent: true, expired: false });
    expect(at(0)).toMatchObject({ clock: '00:00:00', expired: true, urgent: true });
    // a day and a few seconds: hours are 0 on the clock, but days remain
    expect(at(86_400 + 30)).toMatchObject({ showDays: true, clock: '00:00:30', urgent: false });
  });
});
