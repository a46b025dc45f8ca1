import { loadConfig } from './config';
import { createDb, DataDirLockedError, runMigrations, type DbHandle } from './db/create-db';
import { buildApp } from './app';
import type { AppContext } from './lib/context';
import { seedDemoIfEmpty } from './db/seed';
import { ensureReferenceData } from './db/seed/reference-data';
import { startWorkers } from './workers';

const started = Date.now();
const config = loadConfig();

let dbh: DbHandle;
try {
  dbh = await createDb(
    config.databaseUrl ? { databaseUrl: config.databaseUrl, poolMax: config.pgPoolMax } : { dataDir: config.dataDir },
  );
} catch (err) {
  if (err instanceof DataDirLockedError) {
    console.error(`\n${err.message}\n`);
    process.exit(1);
  }
  throw err;
}
const ctx: AppContext = { dbh, db: dbh.db, config, now: () => new Date() };
await runMigrations(dbh);
// currencies, reference lists, providers and payment methods every installation needs (idempotent)
await ensureReferenceData(dbh.db);

const seedWanted = config.seedDemo === 'true' || (config.seedDemo === 'auto' && config.env !== 'production');
const seeded = seedWanted ? await seedDemoIfEmpty(ctx) : null;

const app = await buildApp(ctx, {
  logger: {
    level: config.logLevel,
    redact: ['req.headers.cookie', 'req.headers["x-signature"]', 'req.headers.authorization'],
  },
});
await app.listen({ port: config.port, host: config.host });
const workers = config.workers ? startWorkers(ctx, app.log) : null;

const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.port;
const url = config.publicUrl ?? `http://localhost:${port}`;
console.log(
  `\nPaydesk is running at ${url}  (database: ${dbh.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL'}, ready in ${Date.now() - started} ms)`,
);
if (seeded || (seedWanted && dbh.kind === 'pglite')) {
  console.log(`Demo logins (password demo-2026): admin, owner, support, viewer`);
  console.log(`Merchant API credentials for scripts: ${config.dataDir}/demo-merchant.json\n`);
}

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  try {
    await app.close();
    await workers?.stop();
    await dbh.close();
  } finally {
    process.exit(0);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
