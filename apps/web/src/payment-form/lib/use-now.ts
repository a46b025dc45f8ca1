import { useEffect, useState } from 'react';

/** performance.now(), refreshed at each whole second until the deadline. */
export function useSecondTick(deadlineMs: number): number {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    if (now >= deadlineMs) return;
    // wake up just after the next whole second of the remaining time
    const untilNextSecond = ((deadlineMs - now) % 1000) + 5;
    const id = window.setTimeout(() => setNow(performance.now()), untilNextSecond);
    return () => window.clearTimeout(id);
  }, [now, deadlineMs]);
  return now;
}
