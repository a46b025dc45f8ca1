import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e/support/chromium';

// E2E_PORT: another port, so two checkouts (or a CI clone and a working tree) can run side by side
const PORT = Number(process.env.E2E_PORT) || 3100;
/** Its own data folder per port: a second run must not wipe the database of the first. */
const DATA_DIR = PORT === 3100 ? '.tmp/e2e-data' : `.tmp/e2e-data-${PORT}`;
process.env.E2E_DATA_DIR ??= path.resolve(import.meta.dirname, DATA_DIR);

/** End-to-end against the real server with demo data, driving Debian's Chromium (e2e/support/chromium.ts). */
export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1, // 2-core machine: the server and the browser share it
  retries: 0,
  reporter: 'list',
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: {
    baseURL: `http://localhost:${PORT}`,
    headless: true,
    trace: 'off',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  projects: [{ name: 'chromium' }],
  webServer: {
    command: [
      'npm run build -w apps/web',
      `rm -rf ${DATA_DIR}`,
      // SEED_EXTRA_INVOICES: Second Shop's list past the 10,000-row cap (invoices-keyset.spec.ts); no other spec counts it
      `DATA_DIR=${DATA_DIR} PORT=${PORT} SANDBOX_DELAY_MS=300 SEED_EXTRA_INVOICES=10500 LOG_LEVEL=warn npx tsx apps/server/src/server.ts`,
    ].join(' && '),
    url: `http://localhost:${PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
