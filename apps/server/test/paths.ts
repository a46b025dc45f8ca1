import fs from 'node:fs';
import path from 'node:path';

export const TMP_DIR = path.resolve(import.meta.dirname, '../.tmp');
/**
 * The master key the run's template database was encrypted with (lib/data-vault.ts: the development key file of the
 * tests' data folder): a server process started on a clone of the template must be given it.
 */
export const TEST_KEY_FILE = path.join(TMP_DIR, 'keys', 'master.key');
/**
 * Where the embedded test databases live: memory-backed /dev/shm when the machine has it (a copy of the template
 * there is a memory copy, and PostgreSQL's fsyncs cost nothing), else the tests' own folder.
 */
const DATABASES_ROOT = fs.existsSync('/dev/shm') ? '/dev/shm' : TMP_DIR;
/** Per run, so that two runs at once (two developers, two CI jobs) never read each other's template. */
export const runFiles = (runId: string) => ({
  demo: path.join(TMP_DIR, `test-demo-merchant-${runId}.json`),
  /** the template as a data folder, and every file's copy of it beside it (test/harness.ts createTestDb) */
  databases: path.join(DATABASES_ROOT, `paydesk-test-${runId}`),
});
