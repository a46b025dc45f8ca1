import type { FastifyBaseLogger } from 'fastify';
import { redacted } from '../plugins/error-handler';
import { databaseUnavailable } from '../lib/db-unavailable';
import { trackWorker } from '../lib/metrics';

export type Loop = {
  stop(): Promise<void>;
  /** Run a tick now (and leave the idle back-off). */
  kick(): void;
  /** There may be new work: leave the idle back-off, i.e. the next tick comes within the base interval. */
  nudge(): void;
};

/**
 * What a tick reports. `true`: there may be more, run again at once; `false`/nothing: tick again after the interval.
 * The detailed form drives the idle back-off: `done` items handled (0: idle), `more` as above, and `nextAt` (ms since
 * the epoch on the app's clock), when the next known item falls due: an idle loop never sleeps past it.
 */
export type TickResult = boolean | void | { done: number; more?: boolean; nextAt?: number | null };

/** The longest wait between ticks while they keep failing (the wait doubles from the interval up to this). */
const FAILING_MAX_WAIT_MS = 30_000;

/** An idle loop told that something falls due now still waits this long (clocks disagree by a few ms). */
const MIN_WAIT_MS = 10;

export type LoopOptions = {
  /**
   * Idle back-off: after each tick that found nothing the wait doubles, from `intervalMs` up to this (default
   * `intervalMs`: no back-off). Work found, a nudge or a kick bring it back to `intervalMs`.
   */
  maxIntervalMs?: number;
  /** The first tick after start (default: the interval, at most 1 s). */
  firstDelayMs?: number;
  /** Awaited before each tick: a tick waits for a gap in the interactive traffic (bounded by the gate itself). */
  gate?: () => Promise<unknown>;
  /** The app's clock, for `nextAt` (default Date.now). */
  now?: () => number;
};

/**
 * Runs `tick` every `intervalMs` (and at once when kicked), never two ticks at a time. A tick returning true (or
 * `more`) means "there may be more": the next one runs straight away. Each tick's end is reported to the metrics
 * (`paydesk_worker_*`: time since the last good tick, tick duration; the interval reported is the longest idle wait).
 */
export function startLoop(
  name: string,
  intervalMs: number,
  log: FastifyBaseLogger,
  tick: () => Promise<TickResult>,
  opts: LoopOptions = {},
): Loop {
  const maxIntervalMs = Math.max(intervalMs, opts.maxIntervalMs ?? intervalMs);
  const clock = opts.now ?? Date.now;
  let timer: NodeJS.Timeout | undefined;
  /** When the pending timer fires (performance.now()). */
  let timerAt = Infinity;
  /** Between a tick's start (its gate included) and its end. */
  let busy = false;
  let stopped = false;
  /** The wait after the next idle tick. */
  let idleWait = intervalMs;
  /** Ticks failed in a row: the wait doubles with each (back-off), and a nudge does not cut it short. */
  let failures = 0;
  /** A nudge came while a tick ran: that tick may have missed the new work. */
  let nudged = false;
  const stats = trackWorker(name, maxIntervalMs);

  const schedule = (ms: number) => {
    clearTimeout(timer);
    timerAt = performance.now() + ms;
    timer = setTimeout(run, ms);
  };

  /** How long to wait after a tick that reported `r` (or failed: `r` undefined, ok false). */
  const waitAfter = (r: TickResult, ok: boolean): number => {
    if (!ok) {
      idleWait = intervalMs;
      return Math.min(intervalMs * 2 ** Math.min(failures - 1, 20), Math.max(FAILING_MAX_WAIT_MS, intervalMs));
    }
    if (r === true || (typeof r === 'object' && r.more)) {
      idleWait = intervalMs;
      return 0;
    }
    if (typeof r !== 'object' || r.done > 0 || nudged) {
      idleWait = intervalMs;
      return intervalMs;
    }
    // idle: wait, then wait longer next time; never past the next item known to fall due
    let wait = idleWait;
    idleWait = Math.min(idleWait * 2, maxIntervalMs);
    if (r.nextAt != null) wait = Math.min(wait, Math.max(MIN_WAIT_MS, r.nextAt - clock()));
    return wait;
  };

  /** The tick being run (stop waits for it; a tick still waiting at the gate is simply dropped). */
  let ticking: Promise<void> | undefined;
  const run = () => {
    if (stopped || busy) return;
    busy = true;
    clearTimeout(timer);
    timerAt = Infinity;
    void (async () => {
      let result: TickResult = undefined;
      let ok = false;
      try {
        // a gate that fails only means no gap to wait for: the tick runs
        if (opts.gate) await opts.gate().catch(() => undefined);
        if (stopped) return;
        nudged = false;
        const started = performance.now();
        ticking = (async () => {
          try {
            result = await tick();
            ok = true;
            if (failures) log.info({ worker: name, failures }, 'worker ticks again after failing');
            failures = 0;
          } catch (err) {
            failures++;
            // the database gone: said once, not at every tick of the back-off
            if (!databaseUnavailable(err)) log.error({ err: redacted(err), worker: name }, 'worker tick failed');
            else if (failures === 1) {
              log.warn(
                { err: redacted(err), worker: name },
                'worker paused: the database cannot be reached; backing off',
              );
            }
          } finally {
            stats.tickDone(started, ok);
          }
        })();
        await ticking;
      } finally {
        ticking = undefined;
        busy = false;
        if (!stopped) schedule(waitAfter(result, ok));
      }
    })();
  };

  schedule(opts.firstDelayMs ?? Math.min(intervalMs, 1000));
  return {
    kick() {
      idleWait = intervalMs;
      run();
    },
    nudge() {
      idleWait = intervalMs;
      // failing ticks keep their back-off
      if (failures) return;
      if (busy) nudged = true;
      else if (!stopped && timerAt > performance.now() + intervalMs) schedule(intervalMs);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await ticking;
      stats.remove();
    },
  };
}
