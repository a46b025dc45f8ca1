import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../lib/context';
import { startLoop, type Loop } from './loop';
import { engineLoops } from './engine';
import { reconcileLedger } from '../modules/ledger/reconcile';

/** How often the books are proven: balance rows = sums of entries, every book sums to zero. */
const RECONCILE_EVERY_MS = 15 * 60_000;

/** Background work: each loop claims rows with FOR UPDATE SKIP LOCKED, so several processes can run them. */
export function startWorkers(ctx: AppContext, log: FastifyBaseLogger) {
  const loops: Loop[] = [];
  if (ctx.dbh.kind === 'pglite') {
    // PGlite has no autovacuum worker
    loops.push(
      startLoop('vacuum', 6 * 3600_000, log, async () => {
        await ctx.dbh.pool.query('VACUUM ANALYZE');
      }),
    );
  }
  loops.push(...engineLoops(ctx, log));
  loops.push(
    startLoop('ledger-reconcile', RECONCILE_EVERY_MS, log, async () => {
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
    }),
  );
  return {
    async stop() {
      await Promise.all(loops.map((l) => l.stop()));
    },
  };
}
