/**
 * Re-encrypts every stored requisite under a new data key (docs/data-encryption.md, "Rotation"):
 *   npm run rotate-data-key [-- --batch 1000]
 * Runs beside the serving processes on PostgreSQL (the embedded database serves one process: stop the server first).
 * Stopped halfway, run it again: it finishes the rotation in progress. Audited at start and end.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { createDb, DataDirLockedError, runMigrations } from '../db/create-db';
import { createContext } from '../lib/context';
import { rotateDataKey } from '../lib/requisite-keys';

function fail(message: string): never {
  console.error(`rotate-data-key: ${message}`);
  process.exit(1);
}

const USAGE = 'Usage: npm run rotate-data-key [-- --batch ROWS]   (ROWS per transaction, 1–10000, default 1000)';
let args;
try {
  args = parseArgs({
    options: { batch: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
  }).values;
} catch (err) {
  fail(`${(err as Error).message}\n${USAGE}`);
}
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
const batch = args.batch === undefined ? 1000 : Number(args.batch);
if (!Number.isInteger(batch) || batch < 1 || batch > 10_000)
  fail(`--batch must be a whole number from 1 to 10000\n${USAGE}`);

const config = loadConfig();
let dbh;
try {
  dbh = await createDb(
    config.databaseUrl ? { databaseUrl: config.databaseUrl, poolMax: 2 } : { dataDir: config.dataDir, poolMax: 2 },
  );
} catch (err) {
  if (err instanceof DataDirLockedError)
    fail(
      `${err.message}\nThe embedded database serves one process: stop the server first, or run this against DATABASE_URL.`,
    );
  throw err;
}
let exitCode = 0;
try {
  await runMigrations(dbh);
  const ctx = await createContext(dbh, config);
  const report = await rotateDataKey(ctx, { batch, log: (line) => console.log(`rotate-data-key: ${line}`) });
  console.log(
    `rotate-data-key: active key ${report.keyId}; ${report.reencrypted} values re-encrypted` +
      (report.retired.length ? `; retired ${report.retired.join(', ')}` : ''),
  );
} catch (err) {
  console.error(`rotate-data-key: ${(err as Error).message}`);
  exitCode = 1;
} finally {
  await dbh.close();
}
process.exit(exitCode);
