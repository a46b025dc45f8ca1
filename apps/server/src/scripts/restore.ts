/**
 * Brings a backup of the embedded database back (docs/operations.md, "Back up"); the server must be stopped:
 *   npm run restore -- <folder> [--manifest paydesk-<time>.json] [--force]
 * The newest backup in the folder unless one is named. Its checksum is verified and its books reconciled before it
 * replaces the current database, which is kept beside it as pgdata.before-restore-<time>. --force restores books
 * that do not reconcile.
 */
import { parseArgs } from 'node:util';
import path from 'node:path';
import { loadConfig } from '../config';
import { BackupError, restoreBackup } from '../db/backup';

const USAGE = 'Usage: npm run restore -- <folder> [--manifest paydesk-<time>.json] [--force]';
const fail = (message: string, code = 1): never => {
  console.error(`restore: ${message}`);
  process.exit(code);
};

let parsed: { positionals: string[]; values: { manifest?: string; force?: boolean } } = { positionals: [], values: {} };
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: { manifest: { type: 'string' }, force: { type: 'boolean' } },
    strict: true,
  });
} catch (err) {
  fail(`${(err as Error).message}\n${USAGE}`, 2);
}
if (parsed.positionals.length !== 1) fail(USAGE, 2);
const config = loadConfig();
if (config.databaseUrl) fail('DATABASE_URL is set: restore PostgreSQL with its own tools (docs/operations.md)', 2);
try {
  const folder = path.resolve(process.env.INIT_CWD ?? process.cwd(), parsed.positionals[0]!);
  const r = await restoreBackup(config.dataDir, folder, {
    manifest: parsed.values.manifest,
    force: parsed.values.force,
  });
  const clean = !r.books.drift.length && !r.books.unbalanced.length;
  console.log(
    `restore: ${r.manifest.file} of ${r.manifest.createdAt} is the database in ${config.dataDir} now; ` +
      (clean
        ? 'the books reconcile (every balance equals its entries, every book sums to zero)'
        : `the books do NOT reconcile: ${JSON.stringify(r.books)}`) +
      (r.keptAs ? `; the database it replaced is kept in ${r.keptAs}` : ''),
  );
} catch (err) {
  fail(err instanceof BackupError ? err.message : String((err as Error).stack ?? err));
}
