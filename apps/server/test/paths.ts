import path from 'node:path';

export const TMP_DIR = path.resolve(import.meta.dirname, '../.tmp');
/** Per run, so that two runs at once (two developers, two CI jobs) never read each other's template. */
export const runFiles = (runId: string) => ({
  template: path.join(TMP_DIR, `pglite-template-${runId}.tar`),
  demo: path.join(TMP_DIR, `test-demo-merchant-${runId}.json`),
});
