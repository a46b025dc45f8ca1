/**
 * The payment form's countdown to expiry. The deadline is anchored to a monotonic
 * clock (performance.now()) from the server's `expiredIn`, never to the device's wall clock.
 */

const SECONDS_PER_DAY = 86_400;

/** A monotonic deadline in milliseconds: `expiredIn` seconds after `nowMs`. */
export function countdownDeadline(expiredInSeconds: number, nowMs: number): number {
  return nowMs + Math.max(0, expiredInSeconds) * 1000;
}

/** Whole seconds left until the deadline, never negative (rounded up, so 0 means expired). */
export function secondsLeft(deadlineMs: number, nowMs: number): number {
  return Math.max(0, Math.ceil((deadlineMs - nowMs) / 1000));
}

export type CountdownParts = {
  /** Whole days, shown only when more than a day remains. */
  days: number;
  /** HH:MM:SS of what is left after the days. */
  clock: string;
  showDays: boolean;
  /** No hours and no minutes remain, only seconds (the last minute): shown in red. */
  urgent: boolean;
  expired: boolean;
};

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The countdown turns red in its last minute, when it reads 00:00:SS. Red for the whole last hour would
 * colour most forms from the moment they open (a form lasts 30 minutes unless the merchant says otherwise),
 * and a warning that is always on warns of nothing.
 */
const URGENT_BELOW_SECONDS = 60;

export function countdownParts(totalSeconds: number): CountdownParts {
  const s = Math.max(0, Math.floor(totalSeconds));
  const showDays = s > SECONDS_PER_DAY;
  const days = showDays ? Math.floor(s / SECONDS_PER_DAY) : 0;
  const rest = s - days * SECONDS_PER_DAY;
  const clock = `${pad(Math.floor(rest / 3600))}:${pad(Math.floor((rest % 3600) / 60))}:${pad(rest % 60)}`;
  return { days, clock, showDays, urgent: s < URGENT_BELOW_SECONDS, expired: s === 0 };
}

/** Language-neutral text: '2d 03:04:05' when more than a day remains, otherwise 'HH:MM:SS'. */
export function formatCountdown(totalSeconds: number): string {
  const p = countdownParts(totalSeconds);
  return p.showDays ? `${p.days}d ${p.clock}` : p.clock;
}
