import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestApp, loginAs, type TestApp } from '../../test/harness';
import { nameStatements } from './named-statements';

/**
 * The `named-statements` speed-up (lib/named-statements.ts), on PostgreSQL: statements with parameters run as named
 * prepared statements, one name per text, at most 200 a connection; others are left as they are; a table changed
 * under a prepared plan costs one refused statement, then the text runs unnamed. The app answers the same with the
 * speed-up on and off.
 */
const url = process.env.DATABASE_URL;

describe.skipIf(!url)('named statements', () => {
  const apps: TestApp[] = [];
  afterAll(async () => Promise.all(apps.map((a) => a.close())));

  const preparedOn = async (client: pg.PoolClient) =>
    (await client.query<{ name: string }>(`SELECT name FROM pg_prepared_statements ORDER BY name`)).rows.map(
      (r) => r.name,
    );

  it('names what has parameters, once a text, up to the bound; a changed table makes its text go unnamed', async () => {
    const t = await createTestApp();
    apps.push(t);
    const pool = new pg.Pool({ connectionString: t.ctx.dbh.pool.options.connectionString, max: 1 });
    nameStatements(pool);
    const client = await pool.connect();
    try {
      await client.query('CREATE TEMP TABLE named_t (a int)');
      await client.query('INSERT INTO named_t VALUES (1), (2)');
      for (let i = 0; i < 3; i++) {
        expect((await client.query('SELECT a FROM named_t WHERE a >= $1 ORDER BY a', [1])).rows).toEqual([
          { a: 1 },
          { a: 2 },
        ]);
      }
      await client.query({ text: 'SELECT $1::int + 1 AS n', values: [1] });
      await client.query('SELECT 1'); // no parameters: unnamed
      const named = await preparedOn(client);
      expect(named).toHaveLength(2);
      for (const n of named) expect(n).toMatch(/^pd_[\w-]{24}$/);

      // the table changes under the prepared plan: that statement is refused once, then runs unnamed
      await client.query('ALTER TABLE named_t ADD COLUMN b int DEFAULT 7');
      const star = 'SELECT * FROM named_t WHERE a = $1';
      await client.query('ALTER TABLE named_t DROP COLUMN b');
      await client.query(star, [1]);
      await client.query('ALTER TABLE named_t ADD COLUMN b int DEFAULT 7');
      await expect(client.query(star, [1])).rejects.toThrow(/cached plan must not change result type/);
      expect((await client.query(star, [1])).rows).toEqual([{ a: 1, b: 7 }]);

      // at most 200 names a connection; the rest go unnamed and still run
      for (let i = 0; i < 230; i++) {
        expect((await client.query(`SELECT $1::int + ${i} AS n`, [1])).rows[0].n).toBe(1 + i);
      }
      expect(await preparedOn(client)).toHaveLength(200);
    } finally {
      client.release();
      await pool.end();
    }
  });

  it('through pg-pool (a callback, not a promise) a changed table also costs one refused run', async () => {
    const t = await createTestApp();
    apps.push(t);
    const pool = new pg.Pool({ connectionString: t.ctx.dbh.pool.options.connectionString, max: 1 });
    nameStatements(pool);
    try {
      await pool.query('CREATE TABLE IF NOT EXISTS named_pool_t (a int)');
      await pool.query('INSERT INTO named_pool_t VALUES (1)');
      const star = 'SELECT * FROM named_pool_t WHERE a = $1';
      expect((await pool.query(star, [1])).rows).toEqual([{ a: 1 }]);
      await pool.query('ALTER TABLE named_pool_t ADD COLUMN b int DEFAULT 7');
      await expect(pool.query(star, [1])).rejects.toThrow(/cached plan must not change result type/);
      expect((await pool.query(star, [1])).rows).toEqual([{ a: 1, b: 7 }]);
      expect((await pool.query(star, [1])).rows).toEqual([{ a: 1, b: 7 }]);
    } finally {
      await pool.query('DROP TABLE IF EXISTS named_pool_t');
      await pool.end();
    }
  });

  for (const mode of ['on', 'off'] as const) {
    it(`${mode}: the app's connections ${mode === 'on' ? 'keep' : 'do not keep'} their statements; same answers`, async () => {
      const t = await createTestApp({ speedupsOff: new Set(mode === 'off' ? ['named-statements'] : []) });
      apps.push(t);
      const owner = await loginAs(t.app, 'owner');
      const list = async () =>
        (await t.app.inject({ method: 'GET', url: '/api/v1/invoice?size=20', headers: { cookie: owner } })).json();
      const first = await list();
      expect(await list()).toEqual(first);
      // a connection the pool opens now (one more than it has), used as the app uses its connections
      const n = t.ctx.dbh.pool.totalCount + 1;
      const clients = await Promise.all(Array.from({ length: n }, () => t.ctx.dbh.pool.connect()));
      try {
        const c = clients[n - 1]!;
        await c.query('SELECT count(*) FROM invoices WHERE merchant_id = $1', [t.demo.merchantId]);
        const named = (await preparedOn(c)).filter((n) => n.startsWith('pd_'));
        expect(named.length).toBe(mode === 'on' ? 1 : 0);
      } finally {
        for (const c of clients) c.release();
      }
    });
  }
});
