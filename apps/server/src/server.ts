import cluster from 'node:cluster';
import closeWithGrace from 'close-with-grace';
import pino from 'pino';
import { loadConfig, publicBaseUrl, type Config } from './config';
import { ensureHistoryPartitions } from './modules/history/partitions';
import { createDb, DataDirLockedError, runMigrations, SchemaVersionError, type DbHandle } from './db/create-db';
import { buildApp, logOptions } from './app';
import { createContext } from './lib/context';
import { KEY_REFRESH_MS } from './lib/data-vault';
import { compactAfterEncryption, encryptPlainRequisites } from './lib/requisite-keys';
import { startServerControl } from './lib/server-control';
import { seedDemoIfEmpty } from './db/seed';
import { ensureReferenceData } from './db/seed/reference-data';
import { startWorkers } from './workers';

const started = Date.now();
const config = loadConfig();

async function openDb(config: Config): Promise<DbHandle> {
  try {
    return await createDb(
      config.databaseUrl
        ? { databaseUrl: config.databaseUrl, poolMax: config.pgPoolMax, replicaUrls: config.replicaUrls }
        : { dataDir: config.dataDir },
    );
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      console.error(`\n${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

/** What every module gets (lib/context.ts); the data keys need the migrated database. */
const contextOf = (dbh: DbHandle) => createContext(dbh, config);

/**
 * Migrations, reference data, the encryption of requisites stored before encryption existed, and (outside
 * production, on an empty database) the demo seed.
 */
async function prepare(dbh: DbHandle) {
  try {
    await runMigrations(dbh, { migrate: config.migrate });
  } catch (err) {
    if (err instanceof SchemaVersionError) {
      console.error(`\n${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  // currencies, reference lists, providers and payment methods every installation needs (idempotent)
  await ensureReferenceData(dbh.db);
  const ctx = await contextOf(dbh);
  // the months up to three ahead have their history partitions before the first write (a process that was stopped
  // for months finds the current one missing); the worker keeps them ahead from then on
  await ensureHistoryPartitions(ctx.db, ctx.now());
  const encrypted = await encryptPlainRequisites(ctx);
  if (encrypted) {
    console.log(`Encrypted ${encrypted} requisite values stored before encryption`);
    if (!(await compactAfterEncryption(ctx))) {
      console.log(
        'Their plain old row versions stay in the table files until rewritten: run VACUUM FULL invoices, ' +
          'account_credentials at a quiet time, and retire backups taken before (docs/data-encryption.md)',
      );
    }
  }
  const seedWanted = config.seedDemo === 'true' || (config.seedDemo === 'auto' && config.env !== 'production');
  if (seedWanted) await seedDemoIfEmpty(ctx);
  return { ctx, demo: seedWanted };
}

/**
 * The start banner, the last thing start-up prints: after any build output (scripts/start.mjs builds first) and after
 * the log lines still queued in the log's asynchronous destination ("Server listening at …"). The URL ends the first
 * line, which tools read (`Paydesk is running at http://host:port`, engine/scale-out.test.ts).
 */
function announce(port: number, kind: DbHandle['kind'], demo: boolean) {
  const url = publicBaseUrl({ ...config, port });
  const db = kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL';
  const procs = config.webConcurrency > 1 ? `, ${config.webConcurrency} processes` : '';
  const lines = [`Paydesk is running at ${url}`, '', `Database: ${db}${procs}; ready in ${Date.now() - started} ms`];
  if (demo) {
    lines.push(
      `Demo logins (password demo-2026): admin, ops (platform); owner, finance, support, viewer (Demo Merchant); shop2 (Second Shop)`,
      `Merchant API credentials for scripts: ${config.dataDir}/demo-merchant.json`,
    );
  }
  console.log(`\n${lines.join('\n')}\n`);
}

/** Where the server logs: stdout, written asynchronously (pino's default, made here to be able to wait for it). */
const logStream = pino.destination({ dest: 1, sync: false });

/** Resolves once the log has written every line given to it so far (an empty write joins the queue; 'drain' ends it). */
function logWritten() {
  return new Promise<void>((resolve) => {
    logStream.once('drain', () => resolve());
    logStream.write('');
  });
}

/** One HTTP server (and, unless WORKERS=false, the background workers) in this process. */
async function serve(dbh: DbHandle, opts: { prepared: boolean; demo: boolean }) {
  const { ctx, demo } = opts.prepared ? { ctx: await contextOf(dbh), demo: opts.demo } : await prepare(dbh);
  // migrations and the seed may take long; what the server runs from here on is bounded (exports set their own)
  await dbh.limitStatements(config.statementTimeoutMs);
  const app = await buildApp(ctx, {
    logger: logOptions(config.logLevel, logStream),
  });
  app.log.info(
    {
      masterKey: ctx.vault.source.kind,
      fingerprint: ctx.vault.keyring.masterFingerprint,
      dataKey: ctx.vault.keyring.activeKeyId,
    },
    'requisite encryption ready',
  );
  // a rotation's new data key reaches this process within KEY_REFRESH_MS (lib/requisite-keys.ts rotateDataKey)
  const keyRefresh = setInterval(() => {
    ctx.vault.refresh(ctx.db).catch((err: unknown) => app.log.warn({ err }, 'reading the data keys failed'));
  }, KEY_REFRESH_MS);
  keyRefresh.unref();
  await app.listen({ port: config.port, host: config.host });
  const workers = config.workers ? startWorkers(ctx, app.log) : null;
  // on the embedded database, maintenance commands run inside this process (npm run rotate-data-key)
  const control = dbh.kind === 'pglite' ? await startServerControl(ctx, config.dataDir) : null;
  const address = app.server.address();
  // the primary prints the banner once every process is listening; what they have logged goes out first
  await logWritten();
  if (cluster.isPrimary) announce(typeof address === 'object' && address ? address.port : config.port, dbh.kind, demo);
  else process.send?.('listening');

  // SIGINT/SIGTERM (or an uncaught error): stop taking requests, let the workers finish their tick, close the
  // database; a second signal or 10 s later the process exits anyway
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'fatal error, shutting down');
    else app.log.info({ signal }, 'shutting down');
    clearInterval(keyRefresh);
    await app.close();
    await control?.close();
    await workers?.stop();
    await dbh.close();
  });
}

if (config.webConcurrency > 1 && !config.databaseUrl) {
  console.error('\nWEB_CONCURRENCY > 1 needs DATABASE_URL: the embedded database serves a single process.\n');
  process.exit(1);
}

if (config.webConcurrency > 1 && cluster.isPrimary) {
  // Several stateless processes on one PostgreSQL share the port; workers claim background work with SKIP LOCKED.
  const dbh = await openDb(config);
  const { demo } = await prepare(dbh);
  await dbh.close();
  let stopping = false;
  let ready = 0;
  const fork = () => {
    const w = cluster.fork({ PAYDESK_PREPARED: demo ? 'demo' : 'yes' });
    w.on('message', (m) => {
      if (m === 'listening' && ++ready === config.webConcurrency) announce(config.port, 'postgres', demo);
    });
    w.on('exit', (code) => {
      if (!stopping) {
        console.error(`server process ${w.process.pid} exited (${code}); starting another`);
        fork();
      }
    });
  };
  for (let i = 0; i < config.webConcurrency; i++) fork();
  const stop = () => {
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
    setTimeout(() => process.exit(0), 11_000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  cluster.on('exit', () => {
    if (stopping && Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
  });
} else {
  const prepared = process.env.PAYDESK_PREPARED;
  await serve(await openDb(config), { prepared: Boolean(prepared), demo: prepared === 'demo' });
}
