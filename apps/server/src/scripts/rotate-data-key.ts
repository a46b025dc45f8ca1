/**
 * Re-encrypts every stored requisite under a new data key (docs/data-encryption.md, "Rotation"):
 *   npm run rotate-data-key [-- --batch 1000]
 * Runs beside the serving processes on PostgreSQL. On the embedded database, whose one serving process holds the data
 * folder, it asks the running server to rotate (lib/server-control.ts) and prints its progress; with no server running
 * it opens the database itself. Stopped halfway, run it again: it finishes the rotation in progress. Audited at start
 * and end.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { createDb, DataDirLockedError, runMigrations } from '../db/create-db';
import { createContext } from '../lib/context';
import { rotateDataKey, type RotationReport } from '../lib/requisite-keys';
import { askServer, serverControlPath } from '../lib/server-control';

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
const printReport = (report: RotationReport) =>
  console.log(
    `rotate-data-key: active key ${report.keyId}; ${report.reencrypted} values re-encrypted` +
      (report.retired.length ? `; retired ${report.retired.join(', ')}` : ''),
  );

/** The embedded database while a server serves it: the server rotates, this prints what it says. */
async function throughServer(): Promise<never> {
  const socket = serverControlPath(config.dataDir);
  if (!socket) fail(`${config.dataDir} is in use by another process, and no running server answers for it.`);
  console.log('rotate-data-key: the server is running: it rotates the keys, this prints its progress');
  try {
    printReport(
      (await askServer(socket, { op: 'rotate-data-key', batch }, (line) =>
        console.log(`rotate-data-key: ${line}`),
      )) as RotationReport,
    );
  } catch (err) {
    fail((err as Error).message);
  }
  process.exit(0);
}

let dbh;
try {
  dbh = await createDb(
    config.databaseUrl ? { databaseUrl: config.databaseUrl, poolMax: 2 } : { dataDir: config.dataDir, poolMax: 2 },
  );
} catch (err) {
  if (err instanceof DataDirLockedError) await throughServer();
  throw err;
}
let exitCode = 0;
try {
  await runMigrations(dbh);
  const ctx = await createContext(dbh, config);
  printReport(await rotateDataKey(ctx, { batch, log: (line) => console.log(`rotate-data-key: ${line}`) }));
} catch (err) {
  console.error(`rotate-data-key: ${(err as Error).message}`);
  exitCode = 1;
} finally {
  await dbh.close();
}
process.exit(exitCode);
