import type { FastifyInstance } from 'fastify';

/**
 * The app's interactive traffic as the background loops see it. On the embedded database every
 * statement shares one connection, so a worker tick that starts while a request is being served makes that request
 * wait: the loops ask `quiet()` before each tick, and requests that may have created work (anything but a read)
 * `nudge` the loops out of their idle back-off.
 */
export class Traffic {
  private inFlight = 0;
  private lastEnd = -Infinity;
  private readonly idleWaiters = new Set<() => void>();
  private readonly workListeners = new Set<() => void>();

  /** Requests being served now. */
  get busy() {
    return this.inFlight;
  }

  /** A request started; the function returned ends it (once, whatever calls it again). */
  begin(): () => void {
    this.inFlight++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.inFlight--;
      this.lastEnd = performance.now();
      if (this.inFlight === 0) for (const w of [...this.idleWaiters]) w();
    };
  }

  /**
   * Resolves true once no request has been in flight for `quietMs` (and `alsoBusy`, e.g. clients waiting for the
   * pool, says no), or false when `maxWaitMs` passed first: a worker waits for a gap, never forever.
   */
  quiet(opts: { quietMs: number; maxWaitMs: number; alsoBusy?: () => boolean }): Promise<boolean> {
    const deadline = performance.now() + opts.maxWaitMs;
    return new Promise<boolean>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const waiter = () => check();
      const finish = (quiet: boolean) => {
        clearTimeout(timer);
        this.idleWaiters.delete(waiter);
        resolve(quiet);
      };
      const check = () => {
        clearTimeout(timer);
        const now = performance.now();
        const idleFor = now - this.lastEnd;
        if (this.inFlight === 0 && idleFor >= opts.quietMs && !opts.alsoBusy?.()) return finish(true);
        if (now >= deadline) return finish(false);
        // in flight: the last one to end calls `waiter`; otherwise look again once the gap is long enough
        const next = this.inFlight > 0 ? deadline - now : idleFor < opts.quietMs ? opts.quietMs - idleFor : 5;
        timer = setTimeout(check, Math.max(1, Math.min(next, deadline - now)));
        timer.unref(); // a worker waiting for a gap does not keep a stopping process alive
      };
      this.idleWaiters.add(waiter);
      check();
    });
  }

  /** Calls `fn` whenever a request that may have made background work (not a read) ends; returns the unsubscribe. */
  onWork(fn: () => void): () => void {
    this.workListeners.add(fn);
    return () => this.workListeners.delete(fn);
  }

  /** Something may have made background work: the loops listening leave their idle back-off. */
  work() {
    for (const fn of this.workListeners) fn();
  }
}

const byContext = new WeakMap<object, Traffic>();

/** The traffic of the app built on `ctx` (one per app; made on first use). */
export function trafficOf(ctx: object): Traffic {
  let t = byContext.get(ctx);
  if (!t) byContext.set(ctx, (t = new Traffic()));
  return t;
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Counts the requests in flight (from arrival until the response is sent or the client went away) for the loops of
 * workers/index.ts, and nudges them after every write. Registered by app.ts on the embedded database only (on
 * PostgreSQL the loops do not yield).
 */
export function registerTraffic(app: FastifyInstance, ctx: object) {
  const traffic = trafficOf(ctx);
  app.addHook('onRequest', (req, reply, done) => {
    const end = traffic.begin();
    // 'close' comes after the last byte was handed over, and also when the client went away mid-answer
    reply.raw.once('close', () => {
      end();
      if (!READS.has(req.method)) traffic.work();
    });
    done();
  });
}
