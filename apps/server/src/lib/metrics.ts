import { performance } from 'node:perf_hooks';
import { count, eq, min } from 'drizzle-orm';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { EXCEPTION_QUEUES, type ExceptionQueue } from '@paydesk/contracts';
import { callbacks } from '../db/schema';
import { exceptionSummary } from '../modules/exceptions/queues';
import { historyDaysAhead } from '../modules/history/partitions';
import type { DbHandle } from '../db/create-db';
import { replicaStatus } from './replicas';
import { withTimeout } from './timeout';

/**
 * Prometheus metrics. Each app (buildApp) has a registry of its own, so that tests may build many apps in
 * one process; what belongs to the process (Node's own metrics, the worker loops) is kept once per process.
 */

export type SignInFailureReason = 'password' | 'second_factor';

/** The app's metrics, reachable from services as `ctx.metrics` (set by buildApp). */
export type AppMetrics = {
  readonly registry: Registry;
  /** One HTTP response: `route` is the route pattern (`/api/v1/invoices/:id`), never the URL. */
  observeRequest(method: string, route: string, statusCode: number, seconds: number): void;
  signInFailure(reason: SignInFailureReason): void;
  /** A long read (CSV export, report) started, on a replica or on the primary (lib/replicas.ts). */
  longRead(on: 'replica' | 'primary'): void;
  lockout(): void;
  /** The text a scrape gets: this app's metrics and the process's. */
  render(): Promise<string>;
};

/** A failed sign-in attempt (wrong password, unknown user, or a wrong second factor). No-op without metrics. */
export function countSignInFailure(ctx: { metrics?: AppMetrics }, reason: SignInFailureReason) {
  ctx.metrics?.signInFailure(reason);
}

/** A user locked by too many failures (the attempt that set the lock). No-op without metrics. */
export function countLockout(ctx: { metrics?: AppMetrics }) {
  ctx.metrics?.lockout();
}

// ---- worker loops: written by workers/loop.ts, read at scrape time ----

type WorkerState = {
  name: string;
  intervalMs: number;
  startedAt: number;
  lastSuccessAt: number | null;
  lastTickSeconds: number | null;
};
const workers = new Set<WorkerState>();

export type WorkerTracker = {
  /** A tick ended; `startedAt` is its performance.now() at start. */
  tickDone(startedAt: number, ok: boolean): void;
  /** The loop stopped: its series go away. */
  remove(): void;
};

/** A worker loop of `name` ticking every `intervalMs` (workers/loop.ts). */
export function trackWorker(name: string, intervalMs: number): WorkerTracker {
  const state: WorkerState = {
    name,
    intervalMs,
    startedAt: performance.now(),
    lastSuccessAt: null,
    lastTickSeconds: null,
  };
  workers.add(state);
  return {
    tickDone(startedAt, ok) {
      const end = performance.now();
      state.lastTickSeconds = (end - startedAt) / 1000;
      if (ok) state.lastSuccessAt = end;
    },
    remove() {
      workers.delete(state);
    },
  };
}

/** Per worker name (two loops of one name: the laggier one). */
function workerSnapshot() {
  const now = performance.now();
  const byName = new Map<string, { age: number; tick: number | null; interval: number }>();
  for (const w of workers) {
    const age = (now - (w.lastSuccessAt ?? w.startedAt)) / 1000;
    const prev = byName.get(w.name);
    if (!prev || age > prev.age) byName.set(w.name, { age, tick: w.lastTickSeconds, interval: w.intervalMs / 1000 });
  }
  return byName;
}

// ---- process metrics: once per process, not per app (collectDefaultMetrics starts observers) ----

let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

const SCRAPE_QUERY_MS = 1500;

/**
 * A query several gauges of one scrape share: run once for all of them (the registry collects its metrics
 * concurrently; an answer less than a second old is reused), never a second time while the first still runs (a stuck
 * database must not collect a queue of them), and given up after SCRAPE_QUERY_MS for `unknown`.
 */
function oncePerScrape<T>(what: string, run: () => Promise<T>, unknown: T): () => Promise<T> {
  let running: Promise<T> | undefined;
  let last: { at: number; value: T } | undefined;
  return () => {
    if (last && performance.now() - last.at < 1000) return Promise.resolve(last.value);
    running ??= run()
      .then((value) => {
        last = { at: performance.now(), value };
        return value;
      })
      .finally(() => (running = undefined));
    return withTimeout(running, SCRAPE_QUERY_MS, what).catch(() => unknown);
  };
}

/** What the metrics read: the database (its pool for the pool gauges) and the server clock (AppContext has both). */
type MetricsSource = {
  dbh: DbHandle;
  db: DbHandle['db'];
  now: () => Date;
  config: { pgLongReadPoolMax: number; longReadWaitMs: number; replicaMaxLagMs: number };
};

export function createAppMetrics(ctx: MetricsSource): AppMetrics {
  const registry = new Registry();
  const registers = [registry];

  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP responses by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers,
  });

  const durationByLabels = new Map<string, { observe(seconds: number): void }>();

  const signInFailures = new Counter({
    name: 'paydesk_sign_in_failures_total',
    help: 'Failed back-office sign-in attempts, by what failed',
    labelNames: ['reason'] as const,
    registers,
  });
  for (const reason of ['password', 'second_factor'] as const) signInFailures.inc({ reason }, 0);
  const lockouts = new Counter({
    name: 'paydesk_sign_in_lockouts_total',
    help: 'Users locked after too many failed attempts',
    registers,
  });

  // before the outbox gauges: read before the scrape's own query takes a connection
  const pool = ctx.dbh.pool;
  const poolGauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(read());
      },
    });
  poolGauge('paydesk_db_pool_connections', 'Open database pool connections (busy and idle)', () => pool.totalCount);
  poolGauge('paydesk_db_pool_idle_connections', 'Idle database pool connections', () => pool.idleCount);
  poolGauge(
    'paydesk_db_pool_waiting_clients',
    'Queries waiting for a database pool connection',
    () => pool.waitingCount,
  );
  poolGauge('paydesk_db_pool_max_connections', 'Size limit of the database pool', () => pool.options.max);

  const longReads = new Counter({
    name: 'paydesk_long_reads_total',
    help: 'Long reads (CSV exports, reports, the audit export) started, by where they ran: replica or primary',
    labelNames: ['on'] as const,
    registers,
  });
  for (const on of ['replica', 'primary'] as const) longReads.inc({ on }, 0);
  if (ctx.dbh.replicas.length) {
    new Gauge({
      name: 'paydesk_replica_lag_seconds',
      help: 'How far each streaming replica is behind the primary (NaN when it did not answer)',
      labelNames: ['replica'] as const,
      registers,
      async collect() {
        for (const r of await replicaStatus(ctx))
          this.set({ replica: r.name }, r.lagMs === null ? NaN : r.lagMs / 1000);
      },
    });
  }

  // One query per scrape for both outbox gauges (oncePerScrape). It reads only PENDING rows, through callbacks_due_idx (status, next_attempt_at): the delivered history is never scanned, and a
  // callback leaves PENDING when delivered or after 72 h of retries.
  type OutboxSample = { depth: number; oldestSeconds: number };
  const ageSeconds = (oldest: string | Date | null | undefined) =>
    oldest ? Math.max(0, (ctx.now().getTime() - new Date(oldest).getTime()) / 1000) : 0;
  const sampleOutbox = oncePerScrape<OutboxSample>(
    'callback outbox query',
    () =>
      ctx.db
        .select({ depth: count(), oldest: min(callbacks.createDate) })
        .from(callbacks)
        .where(eq(callbacks.status, 'PENDING'))
        .then(([row]) => ({ depth: row?.depth ?? 0, oldestSeconds: ageSeconds(row?.oldest) })),
    // NaN: unknown (the database did not answer in time)
    { depth: NaN, oldestSeconds: NaN },
  );
  new Gauge({
    name: 'paydesk_callback_outbox_depth',
    help: 'Merchant callbacks waiting to be delivered (PENDING); NaN when the database did not answer',
    registers,
    async collect() {
      this.set((await sampleOutbox()).depth);
    },
  });
  new Gauge({
    name: 'paydesk_callback_outbox_oldest_age_seconds',
    help: 'Age of the oldest merchant callback waiting to be delivered (0 when none)',
    registers,
    async collect() {
      this.set((await sampleOutbox()).oldestSeconds);
    },
  });

  // The operations desk's queues (docs/operations.md): both gauges from one exceptionSummary per scrape, the query
  // the desk's own summary runs (each queue from the index its state leads), sampled as the outbox is.
  type DeskSample = Map<ExceptionQueue, { items: number; oldestSeconds: number }>;
  const sampleDesk = oncePerScrape<DeskSample>(
    'desk queues query',
    () =>
      exceptionSummary(ctx.db, ctx.now()).then(
        (rows) => new Map(rows.map((r) => [r.queue, { items: r.count, oldestSeconds: ageSeconds(r.oldestAt) }])),
      ),
    new Map(EXCEPTION_QUEUES.map((q) => [q, { items: NaN, oldestSeconds: NaN }])),
  );
  new Gauge({
    name: 'paydesk_exception_queue_items',
    help: 'Items waiting in an operations desk queue (unmatched money, stuck payments, failed callbacks, contradictions, paused accounts); NaN when the database did not answer',
    labelNames: ['queue'] as const,
    registers,
    async collect() {
      const desk = await sampleDesk();
      for (const queue of EXCEPTION_QUEUES) this.set({ queue }, desk.get(queue)?.items ?? 0);
    },
  });
  new Gauge({
    name: 'paydesk_exception_queue_oldest_seconds',
    help: 'Age of the oldest item of an operations desk queue (0 when empty; NaN when the database did not answer)',
    labelNames: ['queue'] as const,
    registers,
    async collect() {
      const desk = await sampleDesk();
      for (const queue of EXCEPTION_QUEUES) this.set({ queue }, desk.get(queue)?.oldestSeconds ?? 0);
    },
  });

  const sampleHistory = oncePerScrape('history partitions query', () => historyDaysAhead(ctx.db, ctx.now()), NaN);
  new Gauge({
    name: 'paydesk_history_partition_days_ahead',
    help: 'Days until the last monthly partition of the history table covered least far ahead ends (NaN when the database did not answer)',
    registers,
    async collect() {
      this.set(await sampleHistory());
    },
  });

  new Gauge({
    name: 'paydesk_worker_seconds_since_last_tick',
    help: 'Seconds since the background worker last completed a tick without error (since it started, before the first)',
    labelNames: ['worker'] as const,
    registers,
    collect() {
      this.reset();
      for (const [worker, s] of workerSnapshot()) this.set({ worker }, s.age);
    },
  });
  new Gauge({
    name: 'paydesk_worker_tick_duration_seconds',
    help: "Duration of the background worker's last tick",
    labelNames: ['worker'] as const,
    registers,
    collect() {
      this.reset();
      for (const [worker, s] of workerSnapshot()) if (s.tick !== null) this.set({ worker }, s.tick);
    },
  });
  new Gauge({
    name: 'paydesk_worker_interval_seconds',
    help: 'How often the background worker ticks when idle (lag alerts compare against it)',
    labelNames: ['worker'] as const,
    registers,
    collect() {
      this.reset();
      for (const [worker, s] of workerSnapshot()) this.set({ worker }, s.interval);
    },
  });

  return {
    registry,
    observeRequest(method, route, statusCode, seconds) {
      // one child per method, route pattern and status, looked up by a plain key (prom-client would hash the labels
      // on every observation); a finite set: patterns, not URLs
      const key = `${method} ${statusCode} ${route}`;
      let child = durationByLabels.get(key);
      if (!child) {
        child = httpDuration.labels({ method, route, status_code: statusCode });
        durationByLabels.set(key, child);
      }
      child.observe(seconds);
    },
    longRead(on) {
      longReads.inc({ on });
    },
    signInFailure(reason) {
      signInFailures.inc({ reason });
    },
    lockout() {
      lockouts.inc();
    },
    async render() {
      const [app, proc] = await Promise.all([registry.metrics(), processMetrics().metrics()]);
      return `${app}\n${proc}`;
    },
  };
}

export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;
