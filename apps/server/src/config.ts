import fs from 'node:fs';
import path from 'node:path';
import { CALLBACK_REPLAY_PER_SECOND } from '@paydesk/contracts';
import { z } from 'zod';
import { passwordHashCost } from './lib/password';
import { parseSpeedupsOff, type Speedup } from './lib/speedups';

/**
 * The repository root (default DATA_DIR and WEB_DIST): the nearest folder above this module whose package.json lists
 * the workspaces. Looked up, not counted in `..`s: this module runs as src/config.ts (tsx, tests) and bundled into
 * apps/server/dist/*.js or any folder given to apps/server/build.mjs.
 */
const repoRoot = findRepoRoot(import.meta.dirname);

function findRepoRoot(from: string): string {
  for (let dir = from; path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    const pkg = path.join(dir, 'package.json');
    if (fs.existsSync(pkg) && 'workspaces' in JSON.parse(fs.readFileSync(pkg, 'utf8'))) return dir;
  }
  return path.resolve(from, '../../..');
}

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().optional(),
  /** streaming replicas of DATABASE_URL's server, comma-separated: long reads go to them (docs/operations.md) */
  DATABASE_REPLICA_URL: z.string().optional(),
  /** auto: a process applies the migrations its database lacks at start; off: it refuses to start instead */
  MIGRATE: z.enum(['auto', 'off']).default('auto'),
  REPLICA_MAX_LAG_MS: z.coerce.number().int().min(0).max(3_600_000).default(10_000),
  DATA_DIR: z.string().default(path.join(repoRoot, 'data')),
  PUBLIC_URL: z.string().optional(),
  JWT_SECRET: z.string().min(32).optional(),
  DATA_ENCRYPTION_KEY: z.string().optional(),
  DATA_ENCRYPTION_KEY_FILE: z.string().optional(),
  SESSION_TTL_HOURS: z.coerce.number().positive().default(12),
  COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
  PROVIDER_TOKENS: z.string().optional(),
  SANDBOX_DELAY_MS: z.coerce.number().int().min(0).default(3000),
  /** how many replayed callbacks fall due a second, per replay (docs/operations.md) */
  CALLBACK_REPLAY_PER_SECOND: z.coerce.number().int().min(1).max(1000).default(CALLBACK_REPLAY_PER_SECOND),
  ACCOUNT_PAUSE_AFTER: z.coerce.number().int().min(0).max(1000).default(10),
  ACCOUNT_PAUSE_WINDOW_MIN: z.coerce.number().int().min(1).max(10_080).default(30),
  WORKERS: z.enum(['true', 'false']).default('true'),
  SEED_DEMO: z.enum(['auto', 'true', 'false']).default('auto'),
  SEED_EXTRA_INVOICES: z.coerce.number().int().min(0).max(1_000_000).default(0),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  METRICS_TOKEN: z.string().min(16).optional(),
  WEB_DIST: z.string().default(path.join(repoRoot, 'apps/web/dist')),
  PG_POOL_MAX: z.coerce.number().int().positive().default(20),
  PG_LONG_READ_POOL_MAX: z.coerce.number().int().positive().default(5),
  LONG_READ_WAIT_MS: z.coerce.number().int().positive().default(30_000),
  TRUST_PROXY: z.string().default('false'),
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  CALLBACK_ALLOW_PRIVATE: z.enum(['auto', 'true', 'false']).default('auto'),
  REQUIRE_2FA_PLATFORM: z.enum(['auto', 'true', 'false']).default('auto'),
  STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  EXPORT_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(900_000),
  /** callback attempts and the event log older than this are archived and dropped (docs/operations.md) */
  HISTORY_RETENTION_DAYS: z.coerce.number().int().min(31).max(36_500).default(180),
  HISTORY_ARCHIVE_DIR: z.string().optional(),
  /** speed-ups to turn off, comma-separated (lib/speedups.ts; docs/performance.md) */
  SPEEDUPS_OFF: z.string().optional(),
});

/** The external origin (PUBLIC_URL, else this machine's port), without a trailing slash: links and documents use it. */
export const publicBaseUrl = (config: Pick<Config, 'publicUrl' | 'port'>) =>
  (config.publicUrl ?? `http://localhost:${config.port}`).replace(/\/+$/, '');

export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /**
   * Streaming replicas of the primary (DATABASE_REPLICA_URL): CSV exports, reports and the audit export read from one
   * of them when it is at most replicaMaxLagMs behind, else from the primary (lib/replicas.ts).
   */
  replicaUrls: string[];
  replicaMaxLagMs: number;
  /** At start, apply the migrations the database lacks (auto) or refuse to start (off): db/create-db.ts runMigrations. */
  migrate: 'auto' | 'off';
  dataDir: string;
  publicUrl: string | undefined;
  jwtSecret: string | undefined;
  /**
   * The master key of requisite encryption (lib/data-vault.ts, docs/data-encryption.md), or the file holding it;
   * neither: production refuses to start, development generates one into `dataDir/keys`.
   */
  dataEncryptionKey: string | undefined;
  dataEncryptionKeyFile: string | undefined;
  sessionTtlHours: number;
  cookieSecure: 'auto' | 'true' | 'false';
  /** "token:providerCode,token2:providerCode2" */
  providerTokens: Map<string, string>;
  sandboxDelayMs: number;
  /**
   * Provider accounts whose requisites stopped being paid are taken out of routing (routing/account-health.ts): when
   * none of the last `accountPauseAfter` deposits given its requisites, each given at least `accountPauseWindowMin`
   * minutes ago, was paid. 0 turns the automatic pause off. Only the default: staff's setting (the `settings` row
   * `routing.pause_rule`, changed on the desk) replaces it.
   */
  accountPauseAfter: number;
  accountPauseWindowMin: number;
  /**
   * A bulk replay's deliveries fall due this many a second (modules/callbacks/replay.ts), after the live callbacks: a
   * merchant's endpoint that just came back is not flooded, and the delivery worker keeps room for live traffic.
   */
  callbackReplayPerSecond: number;
  workers: boolean;
  seedDemo: 'auto' | 'true' | 'false';
  /** The demo seed adds this many canceled invoices to Second Shop (tests of lists past the 10,000-row cap). */
  seedExtraInvoices: number;
  logLevel: string;
  /** Bearer token /metrics requires; without it /metrics answers only loopback/private clients in production. */
  metricsToken: string | undefined;
  webDist: string;
  pgPoolMax: number;
  /**
   * PostgreSQL: connections of the pool that CSV exports and reports read from (lib/copy-out.ts), apart from the
   * interactive pool, so that long reads never take the connections requests need; a long read that finds them all
   * busy waits up to longReadWaitMs for one, then answers 503 SERVICE_BUSY.
   */
  pgLongReadPoolMax: number;
  longReadWaitMs: number;
  /** Fastify trustProxy: false, true, or a comma-separated list of proxy addresses/CIDRs. */
  trustProxy: boolean | string;
  /** Server processes on one port (PostgreSQL only). */
  webConcurrency: number;
  /** May callbacks go to loopback/private addresses? Never in production unless set. */
  callbackAllowPrivate: boolean;
  /** Platform staff must sign in with a second factor (PCI DSS 8.4.2); on by default in production only. */
  require2faPlatform: boolean;
  /**
   * PostgreSQL's statement_timeout for what the server runs once it serves (0: none): an interactive request never
   * holds a connection longer. Exports, reports and the ledger check set their own, longer one (exportTimeoutMs).
   * PGlite cannot interrupt a statement; there the bounds are in the queries themselves (pages, keyset, cursors).
   */
  statementTimeoutMs: number;
  exportTimeoutMs: number;
  /**
   * History partitions (modules/history/partitions.ts): the months of callback attempts and of the event log that end
   * more than historyRetentionDays ago are archived as checksummed, compressed CSV under historyArchiveDir (default:
   * the data folder's `archive`), then dropped. The ledger, the audit trail and invoices' status history are kept.
   */
  historyRetentionDays: number;
  historyArchiveDir: string;
  /** Speed-ups turned off (SPEEDUPS_OFF; lib/speedups.ts): the product answers the same without them, slower. */
  speedupsOff: ReadonlySet<Speedup>;
  repoRoot: string;
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const msg = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${msg}`);
  }
  const e = parsed.data;
  if (e.DATABASE_REPLICA_URL?.trim() && !e.DATABASE_URL) {
    throw new Error('Invalid configuration: DATABASE_REPLICA_URL names replicas of DATABASE_URL, which is not set');
  }
  // production never takes its own address from a request's Host header (payment-form links, origin checks)
  if (e.NODE_ENV === 'production' && !e.PUBLIC_URL) {
    throw new Error(
      'Invalid configuration: PUBLIC_URL is required in production (the external origin, e.g. https://pay.example.com)',
    );
  }
  try {
    passwordHashCost(env);
  } catch (err) {
    throw new Error(`Invalid configuration: ${(err as Error).message}`);
  }
  const providerTokens = new Map<string, string>();
  // relative paths are relative to where the command was typed (npm runs workspace scripts inside the workspace)
  const typedIn = env.INIT_CWD ?? process.cwd();
  for (const pair of (e.PROVIDER_TOKENS ?? '').split(',').filter(Boolean)) {
    const [token, code] = pair.split(':');
    if (token && code) providerTokens.set(token, code);
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL || undefined,
    replicaUrls: (e.DATABASE_REPLICA_URL ?? '')
      .split(',')
      .map((u) => u.trim())
      .filter(Boolean),
    replicaMaxLagMs: e.REPLICA_MAX_LAG_MS,
    migrate: e.MIGRATE,
    dataDir: path.resolve(typedIn, e.DATA_DIR),
    publicUrl: e.PUBLIC_URL,
    jwtSecret: e.JWT_SECRET,
    dataEncryptionKey: e.DATA_ENCRYPTION_KEY || undefined,
    dataEncryptionKeyFile: e.DATA_ENCRYPTION_KEY_FILE || undefined,
    sessionTtlHours: e.SESSION_TTL_HOURS,
    cookieSecure: e.COOKIE_SECURE,
    providerTokens,
    sandboxDelayMs: e.SANDBOX_DELAY_MS,
    accountPauseAfter: e.ACCOUNT_PAUSE_AFTER,
    callbackReplayPerSecond: e.CALLBACK_REPLAY_PER_SECOND,
    accountPauseWindowMin: e.ACCOUNT_PAUSE_WINDOW_MIN,
    workers: e.WORKERS === 'true',
    seedDemo: e.SEED_DEMO,
    seedExtraInvoices: e.SEED_EXTRA_INVOICES,
    logLevel: e.LOG_LEVEL,
    metricsToken: e.METRICS_TOKEN || undefined,
    webDist: e.WEB_DIST,
    pgPoolMax: e.PG_POOL_MAX,
    pgLongReadPoolMax: e.PG_LONG_READ_POOL_MAX,
    longReadWaitMs: e.LONG_READ_WAIT_MS,
    webConcurrency: e.WEB_CONCURRENCY,
    callbackAllowPrivate:
      e.CALLBACK_ALLOW_PRIVATE === 'true' || (e.CALLBACK_ALLOW_PRIVATE === 'auto' && e.NODE_ENV !== 'production'),
    require2faPlatform:
      e.REQUIRE_2FA_PLATFORM === 'true' || (e.REQUIRE_2FA_PLATFORM === 'auto' && e.NODE_ENV === 'production'),
    trustProxy: e.TRUST_PROXY === 'true' ? true : e.TRUST_PROXY === 'false' ? false : e.TRUST_PROXY,
    statementTimeoutMs: e.STATEMENT_TIMEOUT_MS,
    exportTimeoutMs: e.EXPORT_STATEMENT_TIMEOUT_MS,
    historyRetentionDays: e.HISTORY_RETENTION_DAYS,
    historyArchiveDir: path.resolve(typedIn, e.HISTORY_ARCHIVE_DIR ?? path.join(e.DATA_DIR, 'archive')),
    speedupsOff: parseSpeedupsOff(e.SPEEDUPS_OFF),
    repoRoot,
    ...overrides,
  };
}
