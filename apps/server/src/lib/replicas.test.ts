import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestApp, loginAs, type TestApp } from '../../test/harness';
import { withDatabase } from '../../test/global-setup';
import { longReadTarget, replicaStatus } from './replicas';

/**
 * Long reads on a real streaming replica (lib/replicas.ts). Runs when DATABASE_URL names a PostgreSQL server and
 * DATABASE_REPLICA_URL a streaming replica of it (`.ci/run` starts one with pg_basebackup -R): a CSV export reads from
 * the replica (the replica's own statistics count it), writes stay on the primary, and a replica that falls behind is
 * passed over for the primary and shown so on /api/ready.
 */
const replicaBase = process.env.DATABASE_REPLICA_URL;
const enabled = !!process.env.DATABASE_URL && !!replicaBase;
/**
 * The lag a replica may have and still serve. Not 0, as elsewhere in the tests: the other test files write to the same
 * server meanwhile, so its WAL moves on every few milliseconds and a replica is seldom exactly caught up.
 */
const MAX_LAG_MS = 1_000;

describe.skipIf(!enabled)('long reads on a streaming replica', () => {
  let t: TestApp;
  let owner: string;
  let replica: pg.Client;

  /** The replica's own count of transactions run in the test's database (a COPY on it is one). */
  const replicaTransactions = async () => {
    await replica.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await replica.query<{ n: string }>(
      'SELECT xact_commit::text AS n FROM pg_stat_database WHERE datname = current_database()',
    );
    return Number(rows[0]!.n);
  };
  const until = async (what: string, ok: () => Promise<boolean>, ms = 15_000) => {
    const end = Date.now() + ms;
    while (!(await ok().catch(() => false))) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const lag = () => t.ctx.dbh.replicas[0]!.lagMs(1_000);
  const caughtUp = () => lag().then((ms) => ms < MAX_LAG_MS / 4);
  const longReads = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    const count = (on: string) =>
      Number(new RegExp(`^paydesk_long_reads_total\\{on="${on}"\\} (\\d+)`, 'm').exec(res.body)?.[1] ?? NaN);
    return { replica: count('replica'), primary: count('primary') };
  };
  const exportCsv = () => t.app.inject({ method: 'GET', url: '/api/v1/invoice/csv', headers: { cookie: owner } });

  beforeAll(async () => {
    t = await createTestApp({ replicaMaxLagMs: MAX_LAG_MS });
    owner = await loginAs(t.app, 'owner');
    // the test's database was created on the primary a moment ago: wait for it on the replica
    const db = new URL(t.ctx.dbh.pool.options.connectionString!).pathname.slice(1);
    await until('the database on the replica', async () => {
      replica = new pg.Client({ connectionString: withDatabase(replicaBase!, db) });
      await replica.connect();
      return true;
    });
  });
  afterAll(async () => {
    await replica?.query('SELECT pg_wal_replay_resume()').catch(() => undefined);
    await replica?.end();
    await t?.close();
  });

  it('a CSV export reads from the replica once it has caught up; the replica counts it', async () => {
    expect(t.ctx.dbh.replicas.map((r) => r.name)).toEqual([expect.stringMatching(/^127\.0\.0\.1:\d+\/paydesk_t_/)]);
    await until('the replica to catch up', caughtUp);
    const before = { reads: await longReads(), transactions: await replicaTransactions() };
    const res = await exportCsv();
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.body.split('\n').length).toBeGreaterThan(2);
    const reads = await longReads();
    expect(reads.replica).toBe(before.reads.replica + 1);
    expect(reads.primary).toBe(before.reads.primary);
    // the replica's own statistics (flushed within a second or so) saw the export's transaction
    await until('the replica to count the export', async () => (await replicaTransactions()) > before.transactions);
    // .ci/run's replica reports the rows its queries read to the primary, as a reporting replica must
    const ready = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.json().replicas).toEqual([expect.objectContaining({ used: true, hotStandbyFeedback: true })]);
  });

  it('exact counts and monitoring statistics read from the replica too; the replica counts them', async () => {
    await until('the replica to catch up', caughtUp);
    const before = { reads: await longReads(), transactions: await replicaTransactions() };
    const count = await t.app.inject({ method: 'GET', url: '/api/v1/invoice/count', headers: { cookie: owner } });
    expect(count.statusCode, count.body).toBe(200);
    expect(count.json().data.total).toBeGreaterThan(0);
    const stats = await t.app.inject({
      method: 'GET',
      url: '/api/data/v1/terminal?minutes=1440',
      headers: { cookie: owner },
    });
    expect(stats.statusCode, stats.body).toBe(200);
    expect(stats.json().data.length).toBeGreaterThan(0);
    const reads = await longReads();
    expect(reads.replica).toBe(before.reads.replica + 2);
    expect(reads.primary).toBe(before.reads.primary);
    await until('the replica to count them', async () => (await replicaTransactions()) >= before.transactions + 2);
  });

  it('writes go to the primary: the app writes, the replica only replays', async () => {
    const { rows } = await t.ctx.dbh.pool.query<{ recovering: boolean }>('SELECT pg_is_in_recovery() AS recovering');
    expect(rows[0]!.recovering).toBe(false);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/saved-views',
      headers: { cookie: owner },
      payload: { name: `replica ${Date.now()}`, state: { statusIds: [4] } },
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    const name = res.json().data.name as string;
    // the same row on the replica, by replication
    await until('the write to reach the replica', async () => {
      const r = await replica.query('SELECT 1 FROM saved_views WHERE name = $1', [name]);
      return r.rowCount === 1;
    });
    await expect(replica.query("INSERT INTO saved_views (name) VALUES ('x')")).rejects.toThrow(/read-only/);
  });

  it('a replica that has fallen behind is passed over for the primary, and /api/ready says so', async () => {
    await replica.query('SELECT pg_wal_replay_pause()');
    const paused = Date.now();
    try {
      // something the replica has not replayed
      await t.ctx.dbh.pool.query('SELECT pg_switch_wal()');
      await t.ctx.dbh.pool.query("UPDATE users SET first_name = first_name WHERE username = 'owner'");
      // behind by more than it may be, and the app's last check (before the pause) too old to vouch for it
      await until('the replica to lag', async () => (await lag()) > MAX_LAG_MS && Date.now() - paused > MAX_LAG_MS);
      const before = await longReads();
      const res = await exportCsv();
      expect(res.statusCode).toBe(200);
      const after = await longReads();
      expect(after).toEqual({ replica: before.replica, primary: before.primary + 1 });
      const ready = await t.app.inject({ method: 'GET', url: '/api/ready' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json().replicas).toEqual([
        expect.objectContaining({ name: t.ctx.dbh.replicas[0]!.name, used: false }),
      ]);
    } finally {
      await replica.query('SELECT pg_wal_replay_resume()');
    }
    await until('the replica to catch up again', caughtUp);
    const before = await longReads();
    expect((await exportCsv()).statusCode).toBe(200);
    expect((await longReads()).replica).toBe(before.replica + 1);
  });
});

describe('a replica that disappears', () => {
  it('is passed over for the primary, asked again only after a pause, and shown with its error', async () => {
    let asked = 0;
    const primaryPool = {} as pg.Pool;
    const gone = {
      name: 'replica-gone:5432/paydesk',
      longReads: () => {
        throw new Error('a replica that does not answer is never read from');
      },
      hotStandbyFeedback: null,
      lagMs: async () => {
        asked++;
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
      },
    };
    const reads: string[] = [];
    const source = {
      dbh: { replicas: [gone], longReads: () => primaryPool },
      config: { pgLongReadPoolMax: 2, longReadWaitMs: 1_000, replicaMaxLagMs: 10_000 },
      metrics: { longRead: (on: 'replica' | 'primary') => void reads.push(on) },
    };
    for (let i = 0; i < 3; i++) {
      const target = await longReadTarget(source);
      expect(target).toEqual({ pool: primaryPool, on: 'primary' });
    }
    expect(reads).toEqual(['primary', 'primary', 'primary']);
    // asked once: the next reads within the pause go straight to the primary
    expect(asked).toBe(1);
    const [status] = await replicaStatus(source);
    expect(status).toMatchObject({
      name: gone.name,
      lagMs: null,
      used: false,
      hotStandbyFeedback: null,
      error: 'connect ECONNREFUSED 127.0.0.1:1',
    });
  });
});
