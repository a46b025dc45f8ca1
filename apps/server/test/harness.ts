import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { inject } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp, logOptions } from '../src/app';
import { loadConfig, type Config } from '../src/config';
import { createDb, type DbHandle } from '../src/db/create-db';
import type { DemoMerchantFile } from '../src/db/seed';
import { createContext, type AppContext } from '../src/lib/context';
import { TEST_KEY_FILE, TMP_DIR } from './paths';
import { withDatabase } from './global-setup';
import { createResponseValidator } from './openapi-validator';
import { sql } from 'drizzle-orm';
import { luhnValid, maskRequisitesInText, webhookPayload } from '@paydesk/contracts';

type TestClock = { now(): Date; set(d: Date): void; advance(ms: number): void; reset(): void };

function makeClock(): TestClock {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    set: (d) => {
      offset = d.getTime() - Date.now();
    },
    advance: (ms) => {
      offset += ms;
    },
    reset: () => {
      offset = 0;
    },
  };
}

/** A fresh database cloned from the run's migrated + seeded template. */
export async function createTestDb(): Promise<DbHandle> {
  const url = process.env.DATABASE_URL;
  const template = inject('pgTemplate');
  if (url && template) {
    const name = `paydesk_t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    // CREATE DATABASE … TEMPLATE needs the template idle; retry briefly if another file is cloning
    for (let i = 0; ; i++) {
      try {
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
        break;
      } catch (err) {
        if (i > 50) throw err;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    await admin.end();
    // DATABASE_REPLICA_URL: a streaming replica of DATABASE_URL's server (.ci/run starts one); the new database
    // reaches it by replication, under the same name
    const replica = process.env.DATABASE_REPLICA_URL;
    const dbh = await createDb({
      databaseUrl: withDatabase(url, name),
      poolMax: 20,
      replicaUrls: replica ? [withDatabase(replica, name)] : [],
    });
    return {
      ...dbh,
      async close() {
        await dbh.close();
        const a = new pg.Client({ connectionString: url });
        await a.connect();
        // pool.end() resolves before every socket has closed: wait for the sessions to go rather than
        // killing them (a killed, half-closed client raises an unhandled error in the test process)
        for (let i = 0; ; i++) {
          try {
            await a.query(`DROP DATABASE IF EXISTS ${name}${i >= 50 ? ' WITH (FORCE)' : ''}`);
            break;
          } catch (err) {
            if (i >= 50) break;
            await new Promise((r) => setTimeout(r, 100));
          }
        }
        await a.end();
      },
    };
  }
  // a copy of the template's data folder, opened where it lies: 0.5 s against 0.9–1.4 s for unpacking the 68 MB
  // dump into PGlite's memory file system (docs/benchmarks.md, "Test suite")
  const templateFolder = inject('templateFolder');
  const folder = path.join(path.dirname(templateFolder), `db-${process.pid}-${randomBytes(4).toString('hex')}`);
  fs.cpSync(templateFolder, folder, { recursive: true });
  const pglite = await PGlite.create(folder, await pgliteAssets());
  const dbh = await createDb({ pglite });
  return {
    ...dbh,
    async close() {
      await dbh.close();
      await pglite.close();
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** PGlite's WebAssembly module compiled once a worker, and its file bundle read once, for every database it opens. */
let assets: Promise<Pick<PGliteOptions, 'pgliteWasmModule' | 'fsBundle'>> | undefined;
// (the ES2022 library the server is typed against has WebAssembly's types but not its functions)
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WebAssembly.Module> } })
  .WebAssembly;
function pgliteAssets() {
  assets ??= (async () => {
    const dist = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    return {
      pgliteWasmModule: await wasm.compile(fs.readFileSync(path.join(dist, 'pglite.wasm'))),
      fsBundle: new Blob([fs.readFileSync(path.join(dist, 'pglite.data'))]),
    };
  })();
  return assets;
}

export type TestApp = {
  app: FastifyInstance;
  ctx: AppContext;
  clock: TestClock;
  demo: DemoMerchantFile;
  close(): Promise<void>;
};

export async function createTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const dbh = await createTestDb();
  const clock = makeClock();
  const config = loadConfig(
    { NODE_ENV: 'test', LOG_LEVEL: 'silent' },
    {
      workers: false,
      sandboxDelayMs: 0,
      dataDir: TMP_DIR,
      // the template's requisites are encrypted under it; named, so that a test posing as production still has it
      dataEncryptionKeyFile: TEST_KEY_FILE,
      publicUrl: 'http://localhost:3000',
      trustProxy: true,
      // a long read uses a replica only once it has replayed everything: a test reads back what it just wrote
      replicaMaxLagMs: 0,
      ...overrides,
    },
  );
  const ctx: AppContext = await createContext(dbh, config, clock.now);
  const responses = createResponseValidator();
  // every line the app logs, as the server writes it (info and up), kept to be scanned for card numbers at close
  const logLines: string[] = [];
  const app = await buildApp(ctx, {
    onSend: responses.hook,
    // as the server logs; TEST_LOG=1 also prints the lines, to see why a request failed. The lines are kept as
    // written, before the masking every line goes through: the scan at close finds any code that logs a full number,
    // which the masking would otherwise hide
    logger: (() => {
      const options = logOptions('info', {
        write: (line: string) => void (process.env.TEST_LOG && process.stderr.write(line)),
      });
      const mask = options.hooks.streamWrite;
      return { ...options, hooks: { streamWrite: (line: string) => (logLines.push(line), mask(line)) } };
    })(),
  });
  fromOwnPages(app, config.publicUrl ?? 'http://localhost:3000');
  await app.ready();
  // what the served app runs is bounded, as in server.ts (PostgreSQL; PGlite cannot interrupt a statement)
  await dbh.limitStatements(config.statementTimeoutMs);
  const demo = JSON.parse(fs.readFileSync(inject('demoFile'), 'utf8')) as DemoMerchantFile;
  return {
    app,
    ctx,
    clock,
    demo,
    async close() {
      // every callback this file's tests queued has the body the document's webhooks promise
      const payloads = await ctx.db.execute<{ id: string; payload: unknown }>(sql`SELECT id, payload FROM callbacks`);
      const wrong = payloads.rows.filter((r) => !webhookPayload.safeParse(r.payload).success);
      await app.close();
      await dbh.close();
      if (wrong.length) {
        throw new Error(`Callbacks whose body does not match the webhook schema: ${wrong.map((r) => r.id).join(', ')}`);
      }
      // no callback body and no log line carries a full card or phone number
      const withPans = [...payloads.rows.map((r) => JSON.stringify(r.payload)), ...logLines].filter(
        // a line the masker would change holds one (a Luhn-valid 13–19 digit number starting 2–9, or a '+' phone),
        // and so does any Luhn-valid run of 13–19 digits, whatever letters stand around it
        (l) => maskRequisitesInText(l) !== l || plainCardIn(l),
      );
      if (withPans.length) {
        throw new Error(
          `Full card or phone numbers in callbacks or log lines:\n${withPans.map(maskRequisitesInText).join('\n')}`,
        );
      }
      // every answer this file's tests got must be what the OpenAPI document says
      if (responses.violations.length) {
        const seen = new Set<string>();
        const lines = responses.violations
          .map((v) => `${v.status} ${v.request}: ${v.problem}`)
          .filter((l) => !seen.has(l) && seen.add(l));
        throw new Error(`Answers that do not match the OpenAPI document:\n${lines.join('\n')}`);
      }
    },
  };
}

/**
 * Requests the tests inject come from the back-office's own pages, as a browser sends them: with the server's own
 * `Origin` (a browser adds it to every write, and the server refuses a write made with the session cookie without
 * it: plugins/csrf.ts). A test that sets `origin`, `sec-fetch-site` or `referer` itself sends what it set;
 * `origin: undefined` sends no Origin at all.
 */
function fromOwnPages(app: FastifyInstance, origin: string) {
  const inject = app.inject.bind(app) as (opts?: InjectOptions | string) => unknown;
  const withOrigin = (opts: InjectOptions): InjectOptions => {
    const given = Object.entries(opts.headers ?? {});
    const says = given.some(([k]) => ['origin', 'sec-fetch-site', 'referer'].includes(k.toLowerCase()));
    const headers = Object.fromEntries(given.filter(([, v]) => v !== undefined));
    return { ...opts, headers: says ? headers : { origin, ...headers } };
  };
  app.inject = ((opts?: InjectOptions | string) =>
    inject(opts && typeof opts === 'object' ? withOrigin(opts) : opts)) as typeof app.inject;
}

/** A Luhn-valid run of 13–19 digits starting 2–9, not part of a longer number or a decimal. */
const plainCardIn = (text: string) =>
  [...text.matchAll(/(?<![\d.])[2-9]\d{12,18}(?!\d)/g)].some((m) => luhnValid(m[0]));

export const DEMO_PASSWORD = 'demo-2026';

/** Signs in over HTTP and returns the Cookie header value for later requests. */
export async function loginAs(app: FastifyInstance, username: string, password = DEMO_PASSWORD): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/v1/login', payload: { username, password } });
  if (res.statusCode !== 200) throw new Error(`login ${username} failed: ${res.statusCode} ${res.body}`);
  const c = res.cookies.find((k) => k.name === 'jwt');
  if (!c) throw new Error('no jwt cookie');
  return `jwt=${c.value}`;
}
