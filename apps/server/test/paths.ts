import path from 'node:path';

export const TMP_DIR = path.resolve(import.meta.dirname, '../.tmp');
export const TEMPLATE_FILE = path.join(TMP_DIR, 'pglite-template.tar');
export const DEMO_FILE = path.join(TMP_DIR, 'test-demo-merchant.json');
