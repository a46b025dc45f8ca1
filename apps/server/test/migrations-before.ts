import fs from 'node:fs';
import path from 'node:path';
import { MIGRATIONS_DIR } from '../src/db/create-db';

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
