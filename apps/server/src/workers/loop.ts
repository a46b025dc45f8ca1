import type { FastifyBaseLogger } from 'fastify';
import { performance } from 'node:perf_hooks';
import { redacted } from '../plugins/error-handler';
import { trackWorker } from '../lib/metrics';

export type Loop = { stop(): Promise<void>; kick(): void };

/**
 * Runs `tick` every `intervalMs` (and at once when kicked), never two ticks at a time.
 * A tick returning true means "there may be more": the next one runs straight away.
 * Each tick's end is reported to the metrics (`paydesk_worker_*`: time since the last good tick, tick duration).
 */
export function startLoop(
  name: string,
  intervalMs: number,
  log: FastifyBaseLogger,
  tick: () => Promise<boolean | void>,
): Loop {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const stats = trackWorker(name, intervalMs);
  const run = () => {
    if (stopped || running) return;
    clearTimeout(timer);
    running = (async () => {
      let more = false;
      let ok = false;
      const started = performance.now();
      try {
        more = (await tick()) === true;
        ok = true;
      } catch (err) {
        log.error({ err: redacted(err), worker: name }, 'worker tick failed');
      } finally {
        stats.tickDone(started, ok);
        running = undefined;
        if (!stopped) timer = setTimeout(run, more ? 0 : intervalMs);
      }
    })();
  };
  timer = setTimeout(run, Math.min(intervalMs, 1000));
  return {
    kick: run,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      stats.remove();
    },
  };
}
