import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { createDb, MIGRATIONS_DIR, type DbHandle } from '../src/db/create-db';
import { emptyDatabase } from './global-setup';

/**
 * A copy, under `dir`, of the migrations that come before the one whose tag ends with `tagSuffix`: an upgrade test
 * migrates a database to that point, fills it as the previous release left it, then applies the rest.
 */
export function migrationsBefore(tagSuffix: string, dir: string): string {
  fs.mkdirSync(path.join(dir, 'meta'), { recursive: true });
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8'));
  const next = (journal.entries as { idx: number; tag: string }[]).find((e) => e.tag.endsWith(tagSuffix));
  if (!next) throw new Error(`no migration ends with ${tagSuffix}`);
  journal.entries = journal.entries.filter((e: { idx: number }) => e.idx < next.idx);
  for (const e of journal.entries as { tag: string }[]) {
    fs.copyFileSync(path.join(MIGRATIONS_DIR, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
  }
  fs.writeFileSync(path.join(dir, 'meta/_journal.json'), JSON.stringify(journal));
  return dir;
}

/**
 * A database migrated to just before the migration whose tag ends with `tagSuffix`: embedded (in memory, or in a data
 * folder of its own with `onDisk`, to look at its files), or with `postgres`, a database of its own on the server of
 * that URL (the run's DATABASE_URL). `close()` closes it and removes everything it made.
 */
export async function databaseBefore(
  tagSuffix: string,
  opts: { onDisk?: boolean; postgres?: string } = {},
): Promise<{ dbh: DbHandle; dataDir: string; url?: string; close(): Promise<void> }> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'paydesk-upgrade-'));
  const dataDir = path.join(tmp, 'pgdata');
  const migrationsFolder = migrationsBefore(tagSuffix, path.join(tmp, 'migrations'));
  if (opts.postgres) {
    const { url, drop } = await emptyDatabase(opts.postgres, 'paydesk_u');
    const dbh = await createDb({ databaseUrl: url, poolMax: 4 });
    await migrate(dbh.db, { migrationsFolder });
    return {
      dbh,
      dataDir,
      url,
      async close() {
        await dbh.close();
        await drop();
        fs.rmSync(tmp, { recursive: true, force: true });
      },
    };
  }
  const pglite = await PGlite.create(opts.onDisk ? dataDir : undefined);
  const dbh = await createDb({ pglite });
  await migrate(dbh.db, { migrationsFolder });
  return {
    dbh,
    dataDir,
    async close() {
      await dbh.close();
      await pglite.close();
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}
