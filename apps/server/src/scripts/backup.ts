/**
 * A backup of the embedded database, while the server runs or not (docs/operations.md, "Back up"):
 *   npm run backup -- <folder>
 * Writes paydesk-<time>.tar.gz and its manifest paydesk-<time>.json into the folder. With DATABASE_URL set, use
 * PostgreSQL's own tools instead (pg_dump, pg_basebackup), as that section describes.
 */
import { parseArgs } from 'node:util';
import path from 'node:path';
import { loadConfig } from '../config';
import { BackupError, takeBackup } from '../db/backup';

const USAGE = 'Usage: npm run backup -- <folder>   (a backup of the embedded database in DATA_DIR, into the folder)';
const fail = (message: string, code = 1): never => {
  console.error(`backup: ${message}`);
  process.exit(code);
};

let positionals: string[] = [];
try {
  positionals = parseArgs({ allowPositionals: true, options: {}, strict: true }).positionals;
} catch (err) {
  fail(`${(err as Error).message}\n${USAGE}`, 2);
}
if (positionals.length !== 1) fail(USAGE, 2);
const config = loadConfig();
if (config.databaseUrl) {
  fail('DATABASE_URL is set: back PostgreSQL up with pg_dump or pg_basebackup (docs/operations.md, "Back up")', 2);
}
try {
  const m = await takeBackup(config.dataDir, path.resolve(process.env.INIT_CWD ?? process.cwd(), positionals[0]!));
  console.log(
    `backup: ${m.file} (${(m.bytes / 1024 / 1024).toFixed(1)} MiB, SHA-256 ${m.sha256}), ${m.taken}; ` +
      `the master key is not in it: keep it apart (docs/data-encryption.md)`,
  );
} catch (err) {
  fail(err instanceof BackupError ? err.message : String((err as Error).stack ?? err));
}
