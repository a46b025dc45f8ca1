import fs from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import { newestAppliedMigration } from './applied-migrations';

/**
 * PGlite's dump of its data folder (a gzipped tar, taken under its query lock) written to `file` (through a
 * `.partial` file renamed at the end, readable by its owner only), with the newest migration it holds.
 */
export async function dumpDataDirTo(db: PGlite, file: string): Promise<{ newestMigration: number }> {
  const newestMigration = await newestAppliedMigration((text) => db.query<{ newest: string | null }>(text));
  const dump = await db.dumpDataDir('gzip');
  await fs.promises.writeFile(`${file}.partial`, Buffer.from(await dump.arrayBuffer()), { mode: 0o600 });
  await fs.promises.rename(`${file}.partial`, file);
  return { newestMigration };
}
