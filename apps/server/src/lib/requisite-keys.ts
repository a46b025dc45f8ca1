import { sql, type SQL } from 'drizzle-orm';
import { recordAudit, SYSTEM_ACTOR } from '../modules/audit/service';
import type { AppContext } from './context';
import type { DataPurpose } from './data-crypto';
import { KEY_REFRESH_MS } from './data-vault';

/*
 * Key maintenance over every stored requisite (docs/data-encryption.md): the encryption of values written before
 * encryption existed, and the rotation onto a new data key. Both walk each table in primary-key order, a bounded
 * batch per transaction, locking only rows nobody else holds (SKIP LOCKED: a payment in flight is never waited on;
 * its row is taken by the next pass), so they run while the product serves.
 */

type Column = {
  table: string;
  purpose: DataPurpose;
  /** id, value and the requisite's type (CARD, PHONE…) of rows after `after`, in id order */
  batch: (after: string | null, limit: number) => SQL;
  update: SQL;
};

const COLUMNS: Column[] = [
  {
    table: 'invoices',
    purpose: 'invoice.credential',
    batch: (after, limit) => sql`
      SELECT i.id::text AS id, i.credential_value AS value, i.credential_hash AS hash,
        CASE WHEN m.requisite_type = 'phone' THEN 'PHONE' ELSE 'CARD' END AS type
      FROM invoices i LEFT JOIN payment_methods m ON m.id = i.payment_method_id
      WHERE i.credential_value IS NOT NULL ${after === null ? sql`` : sql`AND i.id > ${after}::uuid`}
      ORDER BY i.id LIMIT ${limit} FOR UPDATE OF i SKIP LOCKED`,
    update: sql`UPDATE invoices i SET credential_value = v.value,
      credential_hash = coalesce(v.hash, i.credential_hash), credential_masked = coalesce(v.masked, i.credential_masked)
      FROM v WHERE i.id = v.id::uuid`,
  },
  {
    table: 'account_credentials',
    purpose: 'account.credential',
    batch: (after, limit) => sql`
      SELECT c.id::text AS id, c.value, c.value_hash AS hash, c.credential_type AS type FROM account_credentials c
      WHERE true ${after === null ? sql`` : sql`AND c.id > ${Number(after)}`}
      ORDER BY c.id LIMIT ${limit} FOR UPDATE OF c SKIP LOCKED`,
    update: sql`UPDATE account_credentials c SET value = v.value, value_hash = coalesce(v.hash, c.value_hash),
      value_masked = coalesce(v.masked, c.value_masked) FROM v WHERE c.id = v.id::int`,
  },
];

type Row = { id: string; value: string; hash: string | null; type: string };
/** What a row becomes; a null hash or mask keeps the stored one (a re-encryption changes neither). */
type Sealed = { id: string; value: string; hash: string | null; masked: string | null };

/**
 * One pass over every column: `change` says what a row becomes (null: nothing to do). Returns the rows changed; rows
 * locked by someone else when seen are left for another pass.
 */
async function pass(
  ctx: AppContext,
  change: (col: Column, row: Row) => Sealed | null,
  batch: number,
): Promise<{ changed: number }> {
  let changed = 0;
  for (const col of COLUMNS) {
    let after: string | null = null;
    for (;;) {
      const n = await ctx.db.transaction(async (tx) => {
        const rows = (await tx.execute<Row>(col.batch(after, batch))).rows;
        if (rows.length === 0) return -1;
        after = rows[rows.length - 1]!.id;
        const out = rows.map((r) => change(col, r)).filter((x): x is Sealed => x !== null);
        if (out.length) {
          await tx.execute(sql`WITH v AS (
            SELECT * FROM jsonb_to_recordset(${JSON.stringify(out)}::jsonb)
              AS x(id text, value text, hash text, masked text))
            ${col.update}`);
        }
        return out.length;
      });
      if (n < 0) break;
      changed += n;
    }
  }
  return { changed };
}

/** How many stored values are plain, and how many are under each data key. */
export async function requisiteKeyUsage(ctx: AppContext): Promise<{ plain: number; byKey: Record<string, number> }> {
  const res = await ctx.db.execute<{ key: string | null; n: number }>(sql`
    SELECT CASE WHEN v LIKE 'v1:%' THEN split_part(v, ':', 2) END AS key, count(*)::int AS n FROM (
      SELECT credential_value AS v FROM invoices WHERE credential_value IS NOT NULL
      UNION ALL SELECT value FROM account_credentials) s GROUP BY 1`);
  const byKey: Record<string, number> = {};
  let plain = 0;
  for (const r of res.rows) {
    if (r.key === null) plain += Number(r.n);
    else byKey[r.key] = Number(r.n);
  }
  return { plain, byKey };
}

/**
 * After plain values were encrypted, the old row versions still hold them in the table files until their space is
 * reused. On the embedded database, before the server serves, the two tables are rewritten (VACUUM FULL, then a
 * checkpoint), so that the table files hold none. On PostgreSQL other processes may already serve and a rewrite locks
 * the tables: nothing is done, the caller tells the operator to do it at a quiet time (docs/data-encryption.md).
 * Either way the write-ahead log and backups taken before still hold the plain values until they are recycled or
 * destroyed. Returns whether it rewrote.
 */
export async function compactAfterEncryption(ctx: AppContext): Promise<boolean> {
  if (ctx.dbh.kind !== 'pglite') return false;
  for (const table of COLUMNS.map((c) => c.table)) await ctx.db.execute(sql.raw(`VACUUM FULL ${table}`));
  await ctx.db.execute(sql`CHECKPOINT`);
  return true;
}

/**
 * Encrypts every value still stored plain (written before encryption existed), in batches; run at start-up before
 * the server serves. Repeats until a pass finds none (a row locked by a payment in flight is taken next time).
 * Returns how many it encrypted.
 */
export async function encryptPlainRequisites(ctx: AppContext, batch = 1000): Promise<number> {
  const { vault } = ctx;
  let total = 0;
  for (;;) {
    const { changed } = await pass(
      ctx,
      (col, r) => {
        if (vault.keyring.isCiphertext(r.value)) {
          // encrypted but without its hash or mask (a value written by an older process during the upgrade)
          if (r.hash !== null) return null;
          const plain = vault.keyring.decrypt(col.purpose, r.value);
          return { id: r.id, ...vault.seal(col.purpose, r.type, plain), value: r.value };
        }
        return { id: r.id, ...vault.seal(col.purpose, r.type, r.value) };
      },
      batch,
    );
    total += changed;
    if ((await requisiteKeyUsage(ctx)).plain === 0) return total;
    if (changed === 0) await new Promise((r) => setTimeout(r, 200));
  }
}

export type RotationReport = { keyId: string; reencrypted: number; retired: string[]; resumed: boolean };

/**
 * `npm run rotate-data-key`: a new data key becomes the active one and every value is re-encrypted under it, a batch
 * per transaction, while the product runs. Each server process reads the new key within KEY_REFRESH_MS and decrypts
 * values under it at once (an unknown key id makes it read the keys again); until it has, it may still encrypt under
 * the old key, so passes repeat until no row uses an old key, and only then are the old keys retired. Stopped
 * halfway, it resumes: run again, it finishes the rotation in progress instead of starting another. Audited at start
 * and end. `waitMs` is how long it gives processes to take the new key before its last pass: on PostgreSQL, where
 * other servers may be running, their refresh time by default; on the embedded database none, as the one process on
 * its locked folder is this one, whose vault took the new key at once (tests pass 0).
 */
export async function rotateDataKey(
  ctx: AppContext,
  opts: { batch?: number; waitMs?: number; log?: (line: string) => void } = {},
): Promise<RotationReport> {
  const { vault } = ctx;
  const batch = opts.batch ?? 1000;
  const log = opts.log ?? (() => undefined);
  await vault.refresh(ctx.db);
  const before = await requisiteKeyUsage(ctx);
  if (before.plain > 0) await encryptPlainRequisites(ctx, batch);
  const active = vault.keyring.activeKeyId!;
  // a rotation in progress: values remain under a key other than the newest; finish it rather than start another
  const resumed = Object.keys(before.byKey).some((k) => k !== active);
  if (!resumed) {
    const { id, wrapped } = vault.keyring.newDataKey();
    await ctx.db.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO data_keys (id, wrapped, created_at) VALUES (${id}, ${wrapped}, now())`);
      await recordAudit(
        tx,
        SYSTEM_ACTOR,
        { action: 'data_key.rotation_started', targetType: 'data_key', targetId: id, before: { activeKey: active } },
        ctx.now(),
      );
    });
    await vault.refresh(ctx.db);
  }
  const keyId = vault.keyring.activeKeyId!;
  log(`${resumed ? 'resuming the rotation onto' : 'rotating onto'} data key ${keyId}`);
  let reencrypted = 0;
  let waited = false;
  for (let round = 0; ; round++) {
    const { changed } = await pass(
      ctx,
      (col, r) =>
        vault.keyring.isCiphertext(r.value) && vault.keyring.needsReencryption(r.value)
          ? { id: r.id, value: vault.keyring.reencrypt(col.purpose, r.value), hash: null, masked: null }
          : null,
      batch,
    );
    reencrypted += changed;
    log(`pass ${round + 1}: ${changed} values re-encrypted`);
    const usage = await requisiteKeyUsage(ctx);
    const old = Object.keys(usage.byKey).filter((k) => k !== keyId);
    if (old.length === 0 && usage.plain === 0) {
      // processes that have not read the new key yet may still write under an old one: give them their refresh time,
      // then look once more
      if (waited) break;
      waited = true;
      await new Promise((r) => setTimeout(r, opts.waitMs ?? (ctx.dbh.kind === 'pglite' ? 0 : KEY_REFRESH_MS * 2)));
      continue;
    }
    if (changed === 0) await new Promise((r) => setTimeout(r, 200));
  }
  const retired = await ctx.db.transaction(async (tx) => {
    const res = await tx.execute<{ id: string }>(
      sql`UPDATE data_keys SET retired_at = now() WHERE id <> ${keyId} AND retired_at IS NULL RETURNING id`,
    );
    const ids = res.rows.map((r) => r.id);
    await recordAudit(
      tx,
      SYSTEM_ACTOR,
      {
        action: 'data_key.rotation_finished',
        targetType: 'data_key',
        targetId: keyId,
        after: { activeKey: keyId, retired: ids, reencrypted },
      },
      ctx.now(),
    );
    return ids;
  });
  log(`done: ${reencrypted} values re-encrypted; retired ${retired.join(', ') || 'no key'}`);
  return { keyId, reencrypted, retired, resumed };
}
