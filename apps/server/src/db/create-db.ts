import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { PRESET_ROLES } from '@paydesk/contracts';
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { withTimeout } from '../lib/timeout';
import { newestAppliedMigration, type MigrationQuery } from './applied-migrations';
import * as schema from './schema';

// int8 stays text from the driver: schema.ts maps each int8 column exactly (money: a checked
// number, figure: a bigint) and raw queries cast counts to int or parse figures with BigInt.

export type Db = NodePgDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export type DbHandle = {
  db: Db;
  pool: pg.Pool;
  kind: 'postgres' | 'pglite';
  close(): Promise<void>;
  /**
   * From now on every statement on this pool's connections is stopped after `ms` (PostgreSQL's statement_timeout;
   * 0: none). Called once migrations and the seed are done, which may take longer. Long reads have their own limit
   * (longReads; on PGlite, and the ledger check, `SET LOCAL statement_timeout` in their transaction).
   */
  limitStatements(ms: number): Promise<void>;
  /**
   * PostgreSQL: the pool long reads (CSV exports, reports) take their connection from, made on first use and closed
   * with the handle. Its own connections (`max`), so that long reads cannot take those interactive requests need;
   * lib/copy-out.ts makes each read-only, with standard strings and the long reads' statement limit once, when it
   * first uses it, so that a long read runs its statements without a transaction to open. Idle connections stay open
   * for a minute. A long read that finds every connection busy waits `waitMs` at most (then connect fails with
   * pg-pool's timeout). Null on the embedded database, whose one connection long reads share in batches.
   */
  longReads(opts: { max: number; waitMs: number }): pg.Pool | null;
  /** The streaming replicas long reads may use instead (DATABASE_REPLICA_URL; none on the embedded database). */
  replicas: Replica[];
};

/** A streaming replica of the primary, for long reads (lib/replicas.ts decides when to use it). */
export type Replica = {
  /** host:port/database, for metrics, logs and /api/ready (never the credentials) */
  name: string;
  /** its long reads' pool, as DbHandle.longReads (made on first use, closed with the handle) */
  longReads(opts: { max: number; waitMs: number }): pg.Pool;
  /**
   * How far behind the primary it is, in ms: 0 when it has replayed all the primary had written when asked (within
   * a short wait, REPLAY_WAIT_MS: a replica a few ms behind is not "behind"), else the age of the last transaction
   * it replayed. Throws when either server does not answer within `timeoutMs`.
   */
  lagMs(timeoutMs: number): Promise<number>;
  /**
   * Its `hot_standby_feedback`, as the last lag check read it (null before one answered). Off, the primary's clean-up
   * of rows a long export on the replica still reads makes the replica's replay wait behind that export (a recovery
   * conflict, up to max_standby_streaming_delay): its lag grows and long reads go back to the primary.
   */
  hotStandbyFeedback: boolean | null;
};

/**
 * limitStatements for a pool: connections opened from now on start with the limit (a startup parameter: no statement
 * and no round trip of their own); the idle ones opened before (migrations, the seed) are closed, to be opened again
 * with it.
 */
function statementLimiter(pool: pg.Pool): (ms: number) => Promise<void> {
  return async (ms) => {
    if (!Number.isInteger(ms) || ms < 0) throw new Error(`statement timeout must be a whole number of ms: ${ms}`);
    (pool.options as pg.PoolConfig).statement_timeout = ms;
    for (let open = pool.idleCount; open > 0; open--) (await pool.connect()).release(true);
  };
}

export type DbConfig =
  | { databaseUrl: string; poolMax?: number; replicaUrls?: string[] }
  | { dataDir: string; poolMax?: number }
  /** Tests: an already-open PGlite, served in-process over a socket. */
  | { pglite: PGlite; poolMax?: number };

// Run from source (tsx, tests) this module is src/db/create-db.ts; compiled (apps/server/build.mjs) it is part of a
// bundle, and the build puts the migrations and pglite-process.js next to it.
const COMPILED = !import.meta.url.endsWith('.ts');

export const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations');

export class DataDirLockedError extends Error {}

export function acquireLock(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, 'server.lock');
  for (let i = 0; i < 2; i++) {
    try {
      const fd = fs.openSync(lockPath, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      return () => {
        try {
          if (fs.readFileSync(lockPath, 'utf8') === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          /* already gone */
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(fs.readFileSync(lockPath, 'utf8'));
      let alive = false;
      try {
        if (pid > 0) {
          process.kill(pid, 0);
          alive = true;
        }
      } catch {
        alive = false;
      }
      if (alive) {
        throw new DataDirLockedError(
          `The embedded database in ${dataDir} is already in use by another server process (pid ${pid}). ` +
            `Stop that process first, or give this one its own DATA_DIR, or use DATABASE_URL for a shared PostgreSQL server.`,
        );
      }
      fs.unlinkSync(lockPath); // stale lock of a process that is gone
    }
  }
  throw new DataDirLockedError(`Could not lock ${lockPath}`);
}

/** The embedded database process's control socket (db/pglite-process.ts), beside its PostgreSQL socket. */
const CONTROL_SOCKET = 'control.sock';
/** The file in the data folder that names the running server's control socket (scripts/backup.ts reads it). */
export const CONTROL_SOCKET_FILE = 'control-socket';

function socketDir() {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'pgl-'));
}

/**
 * A pg pool whose lost connections never crash the process. The server closing a connection (a restart, a
 * failover, an admin) makes node-postgres emit 'error': on the pool for an idle connection, but on the client
 * itself for one that is checked out between two queries (inside a transaction, while the code awaits something
 * else), where an unheard 'error' event would end the process. Both are logged; the client's next query fails
 * (a 503 to the caller) and the pool drops it on release and opens a new one on demand.
 */
function resilientPool(options: pg.PoolConfig, what: string): pg.Pool {
  const pool = new pg.Pool(options);
  const lost = (err: Error) => console.error(`${what} connection lost: ${err.message}`);
  pool.on('error', lost);
  pool.on('connect', (client) => client.on('error', lost));
  return pool;
}

/**
 * PGlite executes one statement at a time, and pglite-socket's multiplexer can interleave the
 * extended-protocol messages (Parse/Bind/Execute) of two connections ("bind message supplies N
 * parameters…"). One connection gives the same throughput without that hazard. The price: code
 * must never wait for a second connection while holding one (inside a transaction use only `tx`);
 * the acquire timeout turns such a bug into an error instead of a hang.
 */
function poolFor(dir: string) {
  // pg connects to `${host}/.s.PGSQL.${port}` when host is a directory.
  return resilientPool(
    { host: dir, port: 5432, user: 'postgres', database: 'postgres', max: 1, connectionTimeoutMillis: 60_000 },
    'Embedded database',
  );
}

async function startChild(dataDir: string): Promise<{ child: ChildProcess; dir: string }> {
  const dir = socketDir();
  const child = fork(path.join(import.meta.dirname, COMPILED ? 'pglite-process.js' : 'pglite-process.ts'), [], {
    execArgv: COMPILED ? [] : ['--import', 'tsx'],
    env: {
      ...process.env,
      PGLITE_DATA_DIR: path.join(dataDir, 'pgdata'),
      PGLITE_SOCKET_PATH: path.join(dir, '.s.PGSQL.5432'),
      PGLITE_CONTROL_PATH: path.join(dir, CONTROL_SOCKET),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', (m) => (m === 'ready' ? resolve() : reject(new Error(String(m)))));
    child.once('exit', (code) => reject(new Error(`embedded database process exited with code ${code}`)));
    child.once('error', reject);
  });
  return { child, dir };
}

export async function createDb(config: DbConfig): Promise<DbHandle> {
  if ('databaseUrl' in config) {
    const pool = resilientPool({ connectionString: config.databaseUrl, max: config.poolMax ?? 20 }, 'PostgreSQL');
    let longReads: pg.Pool | null = null;
    const replicas = (config.replicaUrls ?? []).map((url) => replicaOf(url, pool));
    return {
      db: drizzle(pool, { schema }),
      pool,
      kind: 'postgres',
      replicas,
      async close() {
        await Promise.all([pool.end(), longReads?.end(), ...replicas.map((r) => r.close())]);
      },
      limitStatements: statementLimiter(pool),
      longReads(opts) {
        if (!longReads) {
          longReads = resilientPool(
            {
              connectionString: config.databaseUrl,
              max: opts.max,
              connectionTimeoutMillis: opts.waitMs,
              idleTimeoutMillis: 60_000,
            },
            'PostgreSQL',
          );
        }
        return longReads;
      },
    };
  }
  if ('pglite' in config) {
    const dir = socketDir();
    const server = new PGLiteSocketServer({
      db: config.pglite,
      path: path.join(dir, '.s.PGSQL.5432'),
      maxConnections: 64,
    });
    await server.start();
    const pool = poolFor(dir);
    return {
      db: drizzle(pool, { schema }),
      pool,
      kind: 'pglite',
      // PGlite accepts the setting but cannot interrupt a statement (no timer signal in WebAssembly)
      limitStatements: statementLimiter(pool),
      longReads: () => null,
      replicas: [],
      async close() {
        await pool.end();
        await server.stop();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const release = acquireLock(config.dataDir);
  try {
    const { child, dir } = await startChild(config.dataDir);
    const pool = poolFor(dir);
    const controlFile = path.join(config.dataDir, CONTROL_SOCKET_FILE);
    fs.writeFileSync(controlFile, path.join(dir, CONTROL_SOCKET), { mode: 0o600 });
    return {
      db: drizzle(pool, { schema }),
      pool,
      kind: 'pglite',
      limitStatements: statementLimiter(pool),
      longReads: () => null,
      replicas: [],
      async close() {
        await pool.end();
        await new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.send('stop');
        });
        fs.rmSync(controlFile, { force: true });
        fs.rmSync(dir, { recursive: true, force: true });
        release();
      },
    };
  } catch (err) {
    release();
    throw err;
  }
}

/** Where a connection string points, without its credentials. */
function whereOf(url: string) {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return 'replica';
  }
}

/** How long a lag check waits for a replica to replay what the primary had written when asked. */
const REPLAY_WAIT_MS = 200;

/**
 * A replica's side of the lag check: whether it has replayed up to the primary's position $1, and how old the last
 * transaction it replayed is.
 */
const check = `SELECT pg_is_in_recovery() AS recovering, pg_last_wal_replay_lsn() >= $1::pg_lsn AS caught_up,
  (extract(epoch FROM clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000)::float8 AS behind,
  current_setting('hot_standby_feedback')::boolean AS feedback`;

/** The replica at `url`, of the primary behind `primary`. */
function replicaOf(url: string, primary: pg.Pool): Replica & { close(): Promise<void> } {
  let reads: pg.Pool | null = null;
  // the lag check's own connection, kept open: one small query a second at most (lib/replicas.ts caches it)
  const probe = resilientPool({ connectionString: url, max: 1, idleTimeoutMillis: 60_000 }, 'PostgreSQL replica');
  const replica: Replica & { close(): Promise<void> } = {
    name: whereOf(url),
    hotStandbyFeedback: null,
    longReads(opts) {
      if (!reads) {
        reads = resilientPool(
          { connectionString: url, max: opts.max, connectionTimeoutMillis: opts.waitMs, idleTimeoutMillis: 60_000 },
          'PostgreSQL replica',
        );
      }
      return reads;
    },
    async lagMs(timeoutMs) {
      return withTimeout(
        (async () => {
          // what the primary has written by now; then whether the replica has replayed it
          const { rows: p } = await primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
          const { rows: r } = await probe.query<{
            recovering: boolean;
            caught_up: boolean | null;
            behind: number | null;
            feedback: boolean;
          }>(check, [p[0]!.lsn]);
          let row = r[0]!;
          // Not there yet: the replica may be only the last few ms behind, while the age of its last replayed
          // transaction says seconds (a quiet primary that has just written again). Wait for it briefly: once it
          // has replayed what the primary had written when asked, it holds everything committed before this check.
          const until = Date.now() + Math.min(REPLAY_WAIT_MS, timeoutMs / 4);
          while (row.recovering && !row.caught_up && Date.now() < until) {
            await new Promise((done) => setTimeout(done, 10));
            row = (await probe.query<typeof row>(check, [p[0]!.lsn])).rows[0]!;
          }
          if (replica.hotStandbyFeedback !== false && !row.feedback) {
            console.warn(
              `PostgreSQL replica ${replica.name} runs with hot_standby_feedback = off: an export on it can hold up ` +
                'its replay (recovery conflicts), and long reads then go to the primary. Set it on for a reporting replica.',
            );
          }
          replica.hotStandbyFeedback = row.feedback;
          if (!row.recovering) throw new Error('not a replica: it is not in recovery');
          if (row.caught_up) return 0;
          return row.behind === null ? Number.POSITIVE_INFINITY : Math.max(0, Number(row.behind));
        })(),
        timeoutMs,
        "the replica's lag check",
      );
    },
    async close() {
      await Promise.all([probe.end(), reads?.end()]);
    },
  };
  return replica;
}

/** The database's schema does not fit this build: the process must not start (the message says what to do). */
export class SchemaVersionError extends Error {}

/** How a process meets a database that lacks some of its migrations: applies them (auto), or refuses (off). */
export type MigrateMode = 'auto' | 'off';

/**
 * Applies the migrations this build has and the database lacks, then brings the preset roles in step. Several
 * processes starting at once on one PostgreSQL (hosts of a deployment, a rolling upgrade) take turns: a session-level
 * advisory lock, held on a connection of its own, makes each wait for the one migrating, then find nothing to do.
 * (Without it two of them would create the same table at once, and one would crash at start.)
 *
 * First, under the same lock, the schema's version is checked against the build (docs/operations.md, "Upgrade"): a
 * database some newer release has migrated refuses an older build (it would not know the newer schema), and with
 * `MIGRATE=off` a database that lacks this build's migrations refuses it too (apply them with one process first).
 */
export async function runMigrations(handle: DbHandle, { migrate: mode = 'auto' }: { migrate?: MigrateMode } = {}) {
  const apply = async (q: MigrationQuery) => {
    await checkSchemaVersion(q, mode);
    await migrate(handle.db, { migrationsFolder: MIGRATIONS_DIR });
    await syncPresetRoles(handle.db);
  };
  // the embedded database serves one process (its data folder is locked): nobody to take turns with
  if (handle.kind === 'pglite') return apply((text) => handle.pool.query(text));
  const lock = new pg.Client(handle.pool.options);
  // lost mid-migration, the query in flight fails; between two queries the event alone must not end the process
  lock.on('error', (err) => console.error(`PostgreSQL connection lost while migrating: ${err.message}`));
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await apply((text) => lock.query(text));
  } finally {
    // closing the session releases its advisory lock, also when a migration failed
    await lock.end();
  }
}

/** Journal times of the migrations this build carries (drizzle's meta/_journal.json), read once. */
let buildMigrationTimes: number[] | undefined;
export function buildMigrations(): number[] {
  buildMigrationTimes ??= readMigrationFiles({ migrationsFolder: MIGRATIONS_DIR }).map((m) => m.folderMillis);
  return buildMigrationTimes;
}

const dayOf = (millis: number) => new Date(millis).toISOString().slice(0, 16).replace('T', ' ');

/**
 * The database's newest applied migration (drizzle.__drizzle_migrations records each one's journal time) against
 * this build's migrations: throws SchemaVersionError when the database is newer than the build, or lacks some of its
 * migrations and `mode` is off.
 */
async function checkSchemaVersion(q: MigrationQuery, mode: MigrateMode) {
  const build = buildMigrations();
  const newestOfBuild = Math.max(...build);
  const newestApplied = await newestAppliedMigration(q);
  if (newestApplied > newestOfBuild) {
    throw new SchemaVersionError(
      `This database was migrated by a newer release (its newest migration is of ${dayOf(newestApplied)} UTC; this ` +
        `build's newest is of ${dayOf(newestOfBuild)} UTC). A build older than the schema does not start: run the ` +
        `newer release, or restore a backup taken before it migrated.`,
    );
  }
  const pending = build.filter((t) => t > newestApplied).length;
  if (pending && mode === 'off') {
    throw new SchemaVersionError(
      `The database lacks ${pending} migration(s) of this build, and MIGRATE=off: start one process with ` +
        'MIGRATE=auto to apply them (the others wait for it), then start this one.',
    );
  }
}

/** The advisory lock key of migrations (any constant no other lock of the product uses). */
const MIGRATION_LOCK = 0x70617964; // 'payd'

/** The preset roles of contracts, inserted or brought in step with it (their permissions may grow between releases). */
async function syncPresetRoles(db: DbHandle['db']) {
  for (const [code, r] of Object.entries(PRESET_ROLES)) {
    const values = { code, name: r.name, scope: r.scope, description: r.description, permissions: [...r.permissions] };
    await db
      .insert(schema.roles)
      .values(values)
      .onConflictDoUpdate({
        target: schema.roles.code,
        set: { name: values.name, description: values.description, permissions: values.permissions },
      });
  }
}
