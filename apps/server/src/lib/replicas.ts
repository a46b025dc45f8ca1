import type pg from 'pg';
import type { DbHandle, Replica } from '../db/create-db';

/*
 * Long reads on streaming replicas (docs/operations.md, "Read replicas"). CSV exports, reports and the audit export
 * (everything lib/copy-out.ts runs) read from a replica of the primary when one is at most REPLICA_MAX_LAG_MS behind,
 * the replicas taken in turn; otherwise from the primary's own long-read pool. What a user must read back at once (a
 * list after an action, an invoice's details) never comes here: those read the primary. A replica that lags or does
 * not answer is passed over, never waited for: the read goes to the primary rather than answering 503.
 */

/** The lag check's time limit: a replica slower than this to say how far behind it is, is passed over. */
const CHECK_TIMEOUT_MS = 1_000;
/** A replica that did not answer is not asked again for this long (its reads go to the primary meanwhile). */
const RETRY_AFTER_MS = 5_000;

/** A replica's last lag check: when, and how far behind it was (null: it did not answer, or is not a replica). */
type Seen = { at: number; lagMs: number | null; error?: string };
const seen = new WeakMap<Replica, Seen>();
let turn = 0;

/**
 * The replica's lag, checked again only when the last check cannot vouch for the bound: a replica seen `lag` ms
 * behind `age` ms ago is now at most `lag + age` behind (it never falls back further than the time that passed), so
 * with REPLICA_MAX_LAG_MS = 0 every long read checks, and with 10 s a busy replica is asked about once a second or so.
 */
async function lagOf(replica: Replica, maxLagMs: number): Promise<number | null> {
  const last = seen.get(replica);
  const now = Date.now();
  if (last) {
    const age = now - last.at;
    if (last.lagMs === null && age < RETRY_AFTER_MS) return null;
    if (last.lagMs !== null && last.lagMs + age <= maxLagMs) return last.lagMs + age;
  }
  let next: Seen;
  try {
    next = { at: Date.now(), lagMs: await replica.lagMs(CHECK_TIMEOUT_MS) };
  } catch (err) {
    next = { at: Date.now(), lagMs: null, error: (err as Error).message };
  }
  seen.set(replica, next);
  return next.lagMs;
}

export type LongReadTarget = { pool: pg.Pool; on: 'replica' | 'primary'; replica?: string };

type Source = {
  dbh: Pick<DbHandle, 'longReads' | 'replicas'>;
  config: { pgLongReadPoolMax: number; longReadWaitMs: number; replicaMaxLagMs: number };
  /** the app's metrics (lib/metrics.ts), counting where long reads ran */
  metrics?: { longRead(on: 'replica' | 'primary'): void };
};

/**
 * The pool a long read takes its connection from: a replica's, when one is at most replicaMaxLagMs behind, else the
 * primary's long-read pool. Null on the embedded database (its long reads share its one connection in batches), and
 * with `replicaOnly` when no replica is close enough (the caller reads the primary as it would without replicas).
 */
export async function longReadTarget(
  ctx: Source,
  opts: { replicaOnly?: boolean } = {},
): Promise<LongReadTarget | null> {
  const pools = { max: ctx.config.pgLongReadPoolMax, waitMs: ctx.config.longReadWaitMs };
  const replicas = ctx.dbh.replicas;
  for (let i = 0; i < replicas.length; i++) {
    const at = (turn + i) % replicas.length;
    const replica = replicas[at]!;
    const lag = await lagOf(replica, ctx.config.replicaMaxLagMs);
    if (lag === null || lag > ctx.config.replicaMaxLagMs) continue;
    turn = (at + 1) % replicas.length;
    ctx.metrics?.longRead('replica');
    return { pool: replica.longReads(pools), on: 'replica', replica: replica.name };
  }
  if (opts.replicaOnly) return null;
  const primary = ctx.dbh.longReads(pools);
  if (!primary) return null;
  ctx.metrics?.longRead('primary');
  return { pool: primary, on: 'primary' };
}

export type ReplicaStatus = {
  name: string;
  /** ms behind the primary at the last check; null when it did not answer (see `error`) */
  lagMs: number | null;
  /** whether long reads go to it now */
  used: boolean;
  checkedAt: string | null;
  /** its hot_standby_feedback (null until it answered): off, exports on it can stall its replay (db/create-db.ts) */
  hotStandbyFeedback: boolean | null;
  error?: string;
};

/** Each replica as last checked (checked now when that is older than a second): for /api/ready and the metrics. */
export async function replicaStatus(ctx: Source): Promise<ReplicaStatus[]> {
  return Promise.all(
    ctx.dbh.replicas.map(async (replica) => {
      const last = seen.get(replica);
      if (!last || Date.now() - last.at > 1_000) await lagOf(replica, -1);
      const s = seen.get(replica)!;
      const lagMs = s.lagMs === null || !Number.isFinite(s.lagMs) ? null : Math.round(s.lagMs);
      return {
        name: replica.name,
        lagMs,
        used: lagMs !== null && lagMs <= ctx.config.replicaMaxLagMs,
        checkedAt: new Date(s.at).toISOString(),
        hotStandbyFeedback: replica.hotStandbyFeedback,
        ...(s.error ? { error: s.error } : {}),
      };
    }),
  );
}
