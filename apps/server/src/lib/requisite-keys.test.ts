import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/harness';
import { createContext } from './context';
import type { DataPurpose } from './data-crypto';
import { encryptPlainRequisites, requisiteKeyUsage, rotateDataKey } from './requisite-keys';

/*
 * Key maintenance: values stored before encryption get encrypted (no plain requisite remains), and a rotation moves
 * every value onto a new data key, leaving all readable, none on the old key, and the old key retired; stopped
 * halfway, it resumes. A process that has not read the new key yet still reads values under it.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

type Stored = { purpose: DataPurpose; value: string; hash: string | null; masked: string | null };
async function everyValue(): Promise<Stored[]> {
  const inv = await t.ctx.db.execute<{ value: string; hash: string | null; masked: string | null }>(sql`
    SELECT credential_value AS value, credential_hash AS hash, credential_masked AS masked FROM invoices
    WHERE credential_value IS NOT NULL`);
  const acc = await t.ctx.db.execute<{ value: string; hash: string | null; masked: string | null }>(sql`
    SELECT value, value_hash AS hash, value_masked AS masked FROM account_credentials`);
  return [
    ...inv.rows.map((r) => ({ ...r, purpose: 'invoice.credential' as const })),
    ...acc.rows.map((r) => ({ ...r, purpose: 'account.credential' as const })),
  ];
}
/** Every value decrypts, and its plain value matches the hash stored beside it. */
async function allReadable() {
  for (const v of await everyValue()) {
    const plain = await t.ctx.vault.open(t.ctx.db, v.purpose, v.value);
    expect(v.hash).toBe(t.ctx.vault.hash(plain));
    expect(v.masked).not.toBeNull();
  }
}
const audits = async (action: string) =>
  (await t.ctx.db.execute(sql`SELECT target_id, after FROM audit_log WHERE action = ${action} ORDER BY id`)).rows;

describe('requisite key maintenance', () => {
  it('encrypts values stored plain before encryption, with hash and mask; none plain remains', async () => {
    const [acc] = (await t.ctx.db.execute<{ id: number }>(sql`SELECT id FROM provider_accounts ORDER BY id LIMIT 1`))
      .rows as [{ id: number }];
    await t.ctx.db.execute(sql`INSERT INTO account_credentials (account_id, credential_type, param_type, value)
      VALUES (${acc.id}, 'CARD', 'S', '4000001234567899')`);
    const [inv] = (
      await t.ctx.db.execute<{ id: string }>(sql`SELECT id FROM invoices WHERE flow_type = 'WITHDRAWAL'
        AND credential_value IS NOT NULL ORDER BY id LIMIT 1`)
    ).rows as [{ id: string }];
    await t.ctx.db.execute(sql`UPDATE invoices SET credential_value = '79161234567', credential_hash = NULL,
      credential_masked = NULL WHERE id = ${inv.id}`);
    expect((await requisiteKeyUsage(t.ctx)).plain).toBe(2);

    expect(await encryptPlainRequisites(t.ctx, 7)).toBe(2);
    expect((await requisiteKeyUsage(t.ctx)).plain).toBe(0);
    const rows = (
      await t.ctx.db.execute<{ value: string; value_masked: string }>(sql`SELECT value, value_masked
        FROM account_credentials WHERE value_hash = ${t.ctx.vault.hash('4000001234567899')}`)
    ).rows;
    expect(rows).toHaveLength(1);
    expect(rows[0]!.value_masked).toBe('400000******7899');
    expect(rows[0]!.value).not.toContain('4000001234567899');
    const [invRow] = (
      await t.ctx.db.execute<{ credential_masked: string }>(
        sql`SELECT credential_masked FROM invoices WHERE id = ${inv.id}`,
      )
    ).rows;
    expect(invRow!.credential_masked).toMatch(/\*/);
    await allReadable();
    // nothing left to do: a second run changes nothing
    expect(await encryptPlainRequisites(t.ctx)).toBe(0);
  });

  it('rotates onto a new key in batches: every value readable, none on the old key, the old key retired', async () => {
    const before = await requisiteKeyUsage(t.ctx);
    const oldKeys = Object.keys(before.byKey);
    expect(oldKeys).toHaveLength(1);
    const total = Object.values(before.byKey).reduce((a, b) => a + b, 0);
    // a process started before the rotation, which has not read the new key yet
    const stale = await createContext(t.ctx.dbh, t.ctx.config);

    const report = await rotateDataKey(t.ctx, { batch: 37, waitMs: 0 });
    expect(report).toMatchObject({ reencrypted: total, retired: oldKeys, resumed: false });
    expect(report.keyId).not.toBe(oldKeys[0]);
    expect(await requisiteKeyUsage(t.ctx)).toEqual({ plain: 0, byKey: { [report.keyId]: total } });
    await allReadable();
    const keys = (
      await t.ctx.db.execute(sql`SELECT id, retired_at IS NOT NULL AS retired FROM data_keys ORDER BY created_at`)
    ).rows;
    expect(keys).toEqual([
      { id: oldKeys[0], retired: true },
      { id: report.keyId, retired: false },
    ]);
    expect(await audits('data_key.rotation_started')).toEqual([{ target_id: report.keyId, after: null }]);
    expect(await audits('data_key.rotation_finished')).toEqual([
      { target_id: report.keyId, after: { activeKey: report.keyId, retired: oldKeys, reencrypted: total } },
    ]);

    // the stale process reads a value under the new key (it loads the key on meeting its id) and then writes under it
    const [one] = await everyValue();
    expect(stale.vault.keyring.activeKeyId).toBe(oldKeys[0]);
    expect(await stale.vault.open(t.ctx.db, one!.purpose, one!.value)).toBe(
      await t.ctx.vault.open(t.ctx.db, one!.purpose, one!.value),
    );
    expect(stale.vault.keyring.activeKeyId).toBe(report.keyId);
  });

  it('stopped halfway, it resumes the rotation in progress instead of starting another', async () => {
    const first = await rotateDataKey(t.ctx, { batch: 500, waitMs: 0 });
    // a rotation that stopped after its new key and part of its work: a newer key, a few values moved onto it
    const { id, wrapped } = t.ctx.vault.keyring.newDataKey();
    await t.ctx.db.execute(sql`INSERT INTO data_keys (id, wrapped, created_at) VALUES (${id}, ${wrapped}, now())`);
    await t.ctx.vault.refresh(t.ctx.db);
    const some = (
      await t.ctx.db.execute<{ id: number; value: string }>(sql`SELECT id, value FROM account_credentials
        ORDER BY id LIMIT 3`)
    ).rows;
    for (const r of some) {
      await t.ctx.db.execute(sql`UPDATE account_credentials
        SET value = ${t.ctx.vault.keyring.reencrypt('account.credential', r.value)} WHERE id = ${r.id}`);
    }
    const usage = await requisiteKeyUsage(t.ctx);
    expect(usage.byKey[id]).toBe(3);

    const resumed = await rotateDataKey(t.ctx, { batch: 500, waitMs: 0 });
    expect(resumed).toMatchObject({ keyId: id, resumed: true, retired: [first.keyId] });
    const total = Object.values(usage.byKey).reduce((a, b) => a + b, 0);
    expect(await requisiteKeyUsage(t.ctx)).toEqual({ plain: 0, byKey: { [id]: total } });
    await allReadable();
  });
});
