import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { PRESET_ROLES } from '@paydesk/contracts';
import { createDb, MIGRATIONS_DIR, runMigrations, type DbHandle } from './create-db';

/**
 * A database made by the previous release (migrations 0000–0001, the old demo roles admin / owner /
 * support / viewer, one platform-wide auto-retry setting) upgrades to the trust model in place.
 */
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'paydesk-upgrade-'));
let dbh: DbHandle | undefined;
let pglite: PGlite | undefined;
afterAll(async () => {
  await dbh?.close();
  await pglite?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

function oldMigrations() {
  const dir = path.join(tmp, 'migrations');
  fs.mkdirSync(path.join(dir, 'meta'), { recursive: true });
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8'));
  journal.entries = journal.entries.filter((e: { idx: number }) => e.idx <= 1);
  for (const e of journal.entries as { tag: string }[]) {
    fs.copyFileSync(path.join(MIGRATIONS_DIR, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
  }
  fs.writeFileSync(path.join(dir, 'meta/_journal.json'), JSON.stringify(journal));
  return dir;
}

describe('upgrading a database of the previous release', () => {
  it('maps the old demo roles onto the preset roles, scopes the rest, keeps the auto-retry value per merchant', async () => {
    pglite = await PGlite.create();
    dbh = await createDb({ pglite });
    await migrate(dbh.db, { migrationsFolder: oldMigrations() });
    const q = (text: string, params: unknown[] = []) => dbh!.pool.query(text, params);
    await q(`INSERT INTO merchants (id, name, webhook_secret) VALUES
      ('11111111-1111-4111-8111-111111111111', 'Old Shop', 'whsec_x'), ('22222222-2222-4222-8222-222222222222', 'Other', 'whsec_y')`);
    await q(
      `INSERT INTO roles (name, permissions) VALUES
      ('admin', $1), ('owner', $2), ('support', ARRAY['ticket.decision','invoice.event.read']), ('viewer', '{}'),
      ('clerk', ARRAY['merchant.read','invoice.status.change'])`,
      [
        ['merchant.rw.all', 'invoice.status.change', 'merchant.read'],
        ['merchant.read', 'invoice.status.change', 'people.account.edit'],
      ],
    );
    const user = (name: string, merchant: string | null, role: string) =>
      q(
        `INSERT INTO users (username, password_hash, first_name, last_name, merchant_id, role_id)
         SELECT $1, 'x', 'F', 'L', $2, id FROM roles WHERE name = $3`,
        [name, merchant, role],
      );
    await user('root', null, 'admin');
    await user('boss', '11111111-1111-4111-8111-111111111111', 'owner');
    await user('helpdesk', '11111111-1111-4111-8111-111111111111', 'support');
    await user('watcher', '11111111-1111-4111-8111-111111111111', 'viewer');
    await user('clerk1', '11111111-1111-4111-8111-111111111111', 'clerk');
    await user('staff-owner', null, 'owner'); // an old platform user on a merchant-ish role
    await q(`INSERT INTO settings (key, value) VALUES ('settings.withdrawal.retry.auto.enable', 'true')`);

    await runMigrations(dbh);

    const users = (
      await q(`SELECT u.username, u.scope, r.code, r.name, r.scope AS role_scope, r.permissions
               FROM users u JOIN roles r ON r.id = u.role_id ORDER BY u.username`)
    ).rows as { username: string; scope: string; code: string | null; role_scope: string; permissions: string[] }[];
    const by = Object.fromEntries(users.map((u) => [u.username, u]));
    expect(by.root).toMatchObject({ code: 'platform_admin', scope: 'platform' });
    expect(by.boss).toMatchObject({ code: 'merchant_owner', scope: 'merchant' });
    expect(by.helpdesk).toMatchObject({ code: 'merchant_support' });
    expect(by.watcher).toMatchObject({ code: 'merchant_viewer' });
    // a custom role held by merchant users keeps its merchant permissions and loses the platform ones
    expect(by.clerk1).toMatchObject({ code: null, role_scope: 'merchant', permissions: ['merchant.read'] });
    expect(by['staff-owner']).toMatchObject({ code: 'platform_viewer', scope: 'platform' });
    for (const u of users) expect(u.role_scope).toBe(u.scope);
    expect([...by.root!.permissions].sort()).toEqual([...PRESET_ROLES.platform_admin.permissions].sort());
    const old = await q(`SELECT name FROM roles WHERE name IN ('admin', 'owner', 'support', 'viewer')`);
    expect(old.rows).toEqual([]);

    const settings = await q(`SELECT merchant_id, value FROM merchant_settings ORDER BY merchant_id`);
    expect(settings.rows.map((r) => r.value)).toEqual(['true', 'true']);
    expect((await q(`SELECT * FROM settings WHERE key LIKE 'settings.%'`)).rows).toEqual([]);
  });
});
