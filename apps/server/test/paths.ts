import path from 'node:path';

export const TMP_DIR = path.resolve(import.meta.dirname, '../.tmp');
/**
 * The master key the run's template database was encrypted with (lib/data-vault.ts: the development key file of the
 * tests' data folder): a server process started on a clone of the template must be given it.
 */
export const TEST_KEY_FILE = path.join(TMP_DIR, 'keys', 'master.key');
/** Per run, so that two runs at once (two developers, two CI jobs) never read each other's template. */
export const runFiles = (runId: string) => ({
  template: path.join(TMP_DIR, `pglite-template-${runId}.tar`),
  demo: path.join(TMP_DIR, `test-demo-merchant-${runId}.json`),
});
