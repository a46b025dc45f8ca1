import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import QueryStream from 'pg-query-stream';
import { createDb, DataDirLockedError, runMigrations, type DbHandle } from './create-db';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paydesk-lock-'));
let first: DbHandle | undefined;
afterAll(async () => {
  await first?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('embedded database (PGlite in a child process over a socket)', () => {
  it('migrates, answers over node-postgres, and refuses a second server on the same data directory', async () => {
    first = await createDb({ dataDir: dir });
    expect(first.kind).toBe('pglite');
    await runMigrations(first);
    const r = await first.pool.query('SELECT count(*)::int AS n FROM invoices');
    expect(r.rows[0].n).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'server.lock'), 'utf8')).toBe(String(process.pid));

    const second = createDb({ dataDir: dir });
    await expect(second).rejects.toBeInstanceOf(DataDirLockedError);
    await expect(second).rejects.toThrow(/already in use by another server process/);

    // cursors: a portal read in batches (what the CSV reports use) survives its suspensions through the socket
    const client = await first.pool.connect();
    let n = 0;
    for await (const row of client.query(
      new QueryStream('SELECT g FROM generate_series(1, 10000) g', [], { batchSize: 2000 }),
    )) {
      n++;
      expect((row as { g: number }).g).toBe(n);
    }
    client.release();
    expect(n).toBe(10000);
    expect((await first.pool.query('SELECT 42 AS v')).rows[0].v).toBe(42);

    await first.close();
    first = undefined;
    expect(fs.existsSync(path.join(dir, 'server.lock'))).toBe(false);
    // the lock is released on close: the data survives and a new server may open it
    const again = await createDb({ dataDir: dir });
    const r2 = await again.pool.query(
      "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'invoices'",
    );
    expect(r2.rows[0].n).toBe(1);
    await again.close();
  });

  it('takes over a stale lock left by a process that is gone', async () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'paydesk-stale-'));
    fs.writeFileSync(path.join(d, 'server.lock'), '999999999');
    const h = await createDb({ dataDir: d });
    await h.close();
    fs.rmSync(d, { recursive: true, force: true });
  });
});

describe.skipIf(!process.env.DATABASE_URL)('a PostgreSQL connection the server ends', () => {
  it('checked out between two queries, its loss is logged, not thrown: the next query fails, the pool goes on', async () => {
    const h = await createDb({ databaseUrl: process.env.DATABASE_URL!, poolMax: 2 });
    const errors: unknown[] = [];
    const onUncaught = (err: unknown) => errors.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      // a client held as in a transaction awaiting something else, when the server ends its session
      const held = await h.pool.connect();
      const pid = (await held.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      await h.pool.query('SELECT pg_terminate_backend($1)', [pid]);
      await new Promise((r) => setTimeout(r, 200));
      await expect(held.query('SELECT 1')).rejects.toThrow();
      held.release();
      expect((await h.pool.query('SELECT 42 AS v')).rows[0].v).toBe(42);
      expect(errors).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
      await h.close();
    }
  });
});
