import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../lib/context';
import { startLoop, type Loop } from './loop';
import { engineLoops } from './engine';

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
  return {
    async stop() {
      await Promise.all(loops.map((l) => l.stop()));
    },
  };
}
