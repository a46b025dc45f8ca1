import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../lib/context';
import { startLoop, type Loop, type LoopOptions } from './loop';
import { engineLoops, type Yielding } from './engine';
import { trafficOf } from './traffic';
import { reconcileLedger } from '../modules/ledger/reconcile';
import { pauseUnpaidAccounts } from '../modules/routing/account-health';
import { historyUpkeep } from './history';

/** How often provider accounts' health is checked. */
const ACCOUNT_HEALTH_EVERY_MS = 60_000;

/** How often the history tables get their months ahead, and their months past the retention archived. */
const HISTORY_PARTITIONS_EVERY_MS = 3600_000;

/** How often the books are proven: balance rows = sums of entries, every book sums to zero. */
const RECONCILE_EVERY_MS = 15 * 60_000;

/**
 * On the embedded database a tick waits for this long a gap in the requests (none in flight, none waiting for the
 * one connection), and for at most `maxWaitMs`: under constant traffic the workers still run, a little later.
 */
const YIELD_TO_REQUESTS = { quietMs: 20, maxWaitMs: 1000 } as const;

/**
 * Background work: each loop claims rows with FOR UPDATE SKIP LOCKED, so several processes can run them. On the
 * embedded database (one connection shared with the requests) the loops yield: each tick waits for a gap in the
 * traffic (workers/traffic.ts, counted by the hook registerTraffic adds in app.ts), idle loops back off and probe
 * with a read before they claim, and the long checks start a minute after start-up rather than at once.
 */
export function startWorkers(ctx: AppContext, log: FastifyBaseLogger) {
  const loops: Loop[] = [];
  let yielding: Yielding | undefined;
  let slow: LoopOptions = {};
  if (ctx.dbh.kind === 'pglite') {
    const traffic = trafficOf(ctx);
    const pool = ctx.dbh.pool;
    yielding = {
      gate: () => traffic.quiet({ ...YIELD_TO_REQUESTS, alsoBusy: () => pool.waitingCount > 0 }),
      onWork: (nudgeAll) => traffic.onWork(nudgeAll),
    };
    slow = { gate: yielding.gate, firstDelayMs: 60_000 };
    // PGlite has no autovacuum worker
    loops.push(
      startLoop(
        'vacuum',
        6 * 3600_000,
        log,
        async () => {
          await ctx.dbh.pool.query('VACUUM ANALYZE');
        },
        slow,
      ),
    );
  }
  loops.push(...engineLoops(ctx, log, yielding));
  loops.push(
    startLoop(
      'ledger-reconcile',
      RECONCILE_EVERY_MS,
      log,
      async () => {
        // every entry is read: the export limit, not the interactive one
        const r = await ctx.db.transaction(async (tx) => {
          await tx.execute(sql.raw(`SET LOCAL statement_timeout = ${ctx.config.exportTimeoutMs}`));
          return reconcileLedger(tx);
        });
        if (r.drift.length || r.unbalanced.length) {
          log.error({ drift: r.drift, unbalanced: r.unbalanced }, 'ledger reconciliation found drift');
        } else {
          log.debug('ledger reconciled: balances equal their entries, every book sums to zero');
        }
      },
      slow,
    ),
  );
  // provider accounts whose requisites stopped being paid leave routing (routing/account-health.ts)
  loops.push(
    startLoop(
      'account-health',
      ACCOUNT_HEALTH_EVERY_MS,
      log,
      async () => {
        const paused = await pauseUnpaidAccounts(ctx);
        if (paused.length) log.warn({ accounts: paused }, 'accounts paused: their requisites stopped being paid');
      },
      slow,
    ),
  );
  // months ahead get their partitions, ended ledger months are closed (modules/ledger/closed-months.ts), callback
  // attempts and event log months past the retention are archived, then dropped (modules/history/partitions.ts)
  loops.push(
    startLoop(
      'history-partitions',
      HISTORY_PARTITIONS_EVERY_MS,
      log,
      async () => {
        const done = await historyUpkeep(ctx, ctx.now());
        if (!done) return; // another process is at it
        if (done.created) log.info({ created: done.created }, 'history partitions created ahead');
        for (const m of done.closed) log.info(m, 'ledger month closed: its sums kept, new entries refused');
        if (done.drift) {
          log.error({ drift: done.drift }, 'ledger month not closed: its day totals differ from its entries');
        }
        for (const p of done.retired) {
          log.info(
            { partition: p.partition, rows: p.rows, file: p.file, sha256: p.sha256 },
            'history month archived and dropped',
          );
        }
      },
      slow,
    ),
  );
  return {
    async stop() {
      await Promise.all(loops.map((l) => l.stop()));
    },
  };
}
