import { afterAll, describe, expect, it } from 'vitest';
import { runMigrations } from '../../db/create-db';
import { databaseBefore } from '../../../test/migrations-before';

/**
 * A database with callbacks and attempts made before replays existed upgrades in place: every attempt gets its
 * callback's merchant, the hourly counts are built from the attempts already there, and new attempts add to them.
 */
let db: Awaited<ReturnType<typeof databaseBefore>> | undefined;
afterAll(async () => db?.close());

const M1 = '11111111-1111-4111-8111-111111111111';
const M2 = '22222222-2222-4222-8222-222222222222';

describe('upgrading callbacks made before replays', () => {
  it('backfills each attempt’s merchant and the hourly counts; later attempts add to them', async () => {
    db = await databaseBefore('_callback_replays');
    const { dbh } = db;
    const q = (text: string, params: unknown[] = []) => dbh.pool.query(text, params);
    await q(`INSERT INTO currencies (id, code, name, dimension) VALUES (1, 'UZS', 'Sum', 2)`);
    await q(
      `INSERT INTO merchants (id, name, webhook_secret) VALUES ($1, 'Old Shop', 'whsec_x'), ($2, 'Other', 'whsec_y')`,
      [M1, M2],
    );
    for (const m of [M1, M2]) {
      await q(
        `WITH t AS (INSERT INTO terminals (merchant_id, name, flow_type, currency_id, callback_url)
           VALUES ($1, 'T', 'DEPOSIT', 1, 'https://shop.example/hooks') RETURNING id),
         i AS (INSERT INTO invoices (merchant_id, terminal_id, merchant_invoice_id, form_id, flow_type, status, amount,
                 currency_id, expires_at)
           SELECT $1, t.id, 'ORD-1', 'form-' || $1, 'DEPOSIT', 'CANCELED', 100, 1, now() FROM t RETURNING id)
         INSERT INTO callbacks (invoice_id, merchant_id, url, payload, invoice_status, status, attempts)
         SELECT i.id, $1, 'https://shop.example/hooks',
           '{}'::jsonb, 'CANCELED', 'DELIVERED', 3 FROM i`,
        [m],
      );
    }
    // three attempts of the first merchant over two hours (a 2xx last), one of the second
    await q(
      `INSERT INTO callback_attempts (callback_id, attempted_at, response_code)
      SELECT c.id, a.at::timestamptz, a.code FROM callbacks c
      JOIN (VALUES ($1::uuid, '2026-03-01T10:59:00Z', 503), ($1::uuid, '2026-03-01T11:00:30Z', NULL),
                   ($1::uuid, '2026-03-01T11:05:00Z', 200), ($2::uuid, '2026-03-01T10:10:00Z', 204))
        AS a(m, at, code) ON a.m = c.merchant_id`,
      [M1, M2],
    );

    await runMigrations(dbh);

    const merchants = await q(`SELECT a.merchant_id = c.merchant_id AS same, a.merchant_id FROM callback_attempts a
      JOIN callbacks c ON c.id = a.callback_id`);
    expect(merchants.rows.every((r) => r.same)).toBe(true);
    expect(merchants.rows).toHaveLength(4);
    const hours = await q(`SELECT merchant_id, hour, attempts, succeeded FROM callback_attempt_hours
      ORDER BY merchant_id, hour`);
    expect(hours.rows.map((r) => [r.merchant_id, new Date(r.hour).toISOString(), r.attempts, r.succeeded])).toEqual([
      [M1, '2026-03-01T10:00:00.000Z', 1, 0],
      [M1, '2026-03-01T11:00:00.000Z', 2, 1],
      [M2, '2026-03-01T10:00:00.000Z', 1, 1],
    ]);
    const columns = await q(`SELECT replay_of, replay_id FROM callbacks`);
    expect(columns.rows.every((r) => r.replay_of === null && r.replay_id === null)).toBe(true);

    // an attempt recorded from now on adds to its hour, whatever the session's time zone
    await q(`SET TIME ZONE 'Asia/Kolkata'`);
    await q(
      `INSERT INTO callback_attempts (callback_id, merchant_id, attempted_at, response_code)
      SELECT id, merchant_id, '2026-03-01T11:59:59.999Z', 500 FROM callbacks WHERE merchant_id = $1`,
      [M1],
    );
    await q(`RESET TIME ZONE`);
    const after = await q(
      `SELECT attempts, succeeded FROM callback_attempt_hours
      WHERE merchant_id = $1 AND hour = '2026-03-01T11:00:00Z'`,
      [M1],
    );
    expect(after.rows).toEqual([{ attempts: 3, succeeded: 1 }]);
    // and an attempt needs its merchant now
    await expect(
      q(`INSERT INTO callback_attempts (callback_id, attempted_at) SELECT id, now() FROM callbacks LIMIT 1`),
    ).rejects.toThrow(/merchant_id/);
  });
});
