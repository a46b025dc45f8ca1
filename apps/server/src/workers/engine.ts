import { sql } from 'drizzle-orm';
import { EXPIRY_GRACE_MS, FLOW_TYPES } from '@paydesk/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../lib/context';
import { sendDueCallbacks } from '../modules/callbacks/service';
import { tickExpiry } from '../modules/engine/expiry';
import { tickSandbox } from '../modules/sandbox/service';
import { startLoop, type Loop, type LoopOptions, type TickResult } from './loop';

/**
 * How the engine's loops behave when they share the embedded database's one connection with the requests
 * (workers/index.ts). Absent: every tick claims work at its interval, as on PostgreSQL.
 */
export type Yielding = {
  /** Awaited before each tick: a gap in the interactive traffic, or a bounded wait. */
  gate: () => Promise<unknown>;
  /** Called with a function that brings every engine loop out of its idle back-off. */
  onWork(nudgeAll: () => void): void;
};

/**
 * Idle back-off caps on the embedded database. An idle loop never sleeps past the next item it knows to fall due
 * (a callback's next attempt, a sandbox answer, a form's expiry: each probe reads it), and new work comes from
 * requests, which nudge the loops back to their base interval (so does a tick of another loop that did something).
 * The caps bound only what neither can see (a clock moved, a row written by hand).
 */
const IDLE_CAP_MS = { callbacks: 10_000, sandbox: 5000, expiry: 10_000 } as const;

/**
 * Items a tick claims on the embedded database: small batches, each behind the gate, so that a backlog (a burst of
 * expired forms, callbacks to send) is worked off between requests instead of holding them for a whole batch.
 */
const BATCH = { callbacks: 10, sandbox: 10, expiry: 20 } as const;

/** When the next pending callback (the oldest next_attempt_at) falls due, ms since the epoch; null: none pending. */
async function nextCallbackAt(ctx: AppContext): Promise<number | null> {
  const r = await ctx.db.execute<{ at: string | null }>(
    sql`SELECT min(next_attempt_at)::text AS at FROM callbacks WHERE status = 'PENDING'`,
  );
  return r.rows[0]?.at ? new Date(r.rows[0].at).getTime() : null;
}

/** When the next sandbox answer falls due, ms since the epoch; null: none pending. */
async function nextSandboxAt(ctx: AppContext): Promise<number | null> {
  const r = await ctx.db.execute<{ at: string | null }>(
    sql`SELECT min(sandbox_due_at)::text AS at FROM provider_transactions
        WHERE status = 'PENDING' AND sandbox_due_at IS NOT NULL`,
  );
  return r.rows[0]?.at ? new Date(r.rows[0].at).getTime() : null;
}

/** When the next form expires by the contracts' rule (expiredSql's arms), ms since the epoch; null: none open. */
async function nextExpiryAt(ctx: AppContext): Promise<number | null> {
  const arms = FLOW_TYPES.flatMap((flow) =>
    Object.entries(EXPIRY_GRACE_MS[flow]).map(
      ([status, grace]) =>
        sql`(SELECT min(expires_at) FROM invoices WHERE status = ${status} AND flow_type = ${flow})
            + ${`${grace ?? 0} milliseconds`}::interval`,
    ),
  );
  const r = await ctx.db.execute<{ at: string | null }>(sql`SELECT least(${sql.join(arms, sql`, `)})::text AS at`);
  return r.rows[0]?.at ? new Date(r.rows[0].at).getTime() : null;
}

/**
 * A tick that first asks (one cheap read) whether anything is due and claims (a write transaction) only then: an
 * idle tick on the embedded database costs a read, not a commit.
 */
function probed(
  ctx: AppContext,
  next: (ctx: AppContext) => Promise<number | null>,
  claim: () => Promise<{ done: number; more: boolean }>,
): () => Promise<TickResult> {
  return async () => {
    const at = await next(ctx);
    if (at === null || at > ctx.now().getTime()) return { done: 0, nextAt: at };
    return claim();
  };
}

/** A batch tick's result: more may be due at once when it claimed as many as it could. */
const batchOf =
  (tick: (ctx: AppContext, o: { limit: number }) => Promise<number>, limit: number) => async (ctx: AppContext) => {
    const done = await tick(ctx, { limit });
    return { done, more: done === limit };
  };

/** The payment engine's background loops: merchant callbacks, the sandbox provider, form expiry. */
export function engineLoops(ctx: AppContext, log: FastifyBaseLogger, yielding?: Yielding): Loop[] {
  if (!yielding) {
    return [
      startLoop('callbacks', 1000, log, async () => (await sendDueCallbacks(ctx, { limit: 50 })).more),
      startLoop('sandbox', 500, log, async () => (await tickSandbox(ctx, { limit: 100 })) === 100),
      startLoop('expiry', 5000, log, async () => (await tickExpiry(ctx, { limit: 200 })) === 200),
    ];
  }
  const loops: Loop[] = [];
  const nudgeAll = () => loops.forEach((l) => l.nudge());
  // a tick that did something (a callback delivered, a transaction answered, a form expired) may have made work for
  // the other loops (a status change enqueues a callback)
  const nudgingOthers = (tick: () => Promise<TickResult>) => async (): Promise<TickResult> => {
    const r = await tick();
    if (typeof r === 'object' && r.done > 0) nudgeAll();
    return r;
  };
  const opts = (cap: number): LoopOptions => ({
    maxIntervalMs: cap,
    gate: yielding.gate,
    now: () => ctx.now().getTime(),
  });
  loops.push(
    startLoop(
      'callbacks',
      1000,
      log,
      nudgingOthers(probed(ctx, nextCallbackAt, () => sendDueCallbacks(ctx, { limit: BATCH.callbacks }))),
      opts(IDLE_CAP_MS.callbacks),
    ),
    startLoop(
      'sandbox',
      500,
      log,
      nudgingOthers(probed(ctx, nextSandboxAt, () => batchOf(tickSandbox, BATCH.sandbox)(ctx))),
      opts(IDLE_CAP_MS.sandbox),
    ),
    startLoop(
      'expiry',
      5000,
      log,
      nudgingOthers(probed(ctx, nextExpiryAt, () => batchOf(tickExpiry, BATCH.expiry)(ctx))),
      opts(IDLE_CAP_MS.expiry),
    ),
  );
  yielding.onWork(nudgeAll);
  return loops;
}
