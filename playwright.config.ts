import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e/support/chromium';
import { BASE_PORT, WORKERS, dataDirOf, portOf } from './e2e/support/servers';

// one name for this run's web build, shared by its servers (scripts/e2e-server.mjs); workers inherit it
process.env.E2E_RUN_ID ??= `${process.pid}-${Date.now()}`;

/**
 * End-to-end against the real server with demo data, driving Debian's Chromium (e2e/support/chromium.ts). Workers run
 * in parallel, each against a server and data folder of its own (e2e/support/servers.ts); a file's tests run in
 * order in one worker.
 */
export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: WORKERS,
  retries: 0,
  reporter: 'list',
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: {
    // each test's own server: e2e/support/auth.ts sets baseURL per worker; this is the first one's
    baseURL: `http://localhost:${BASE_PORT}`,
    headless: true,
    trace: 'off',
    // the app's transitions off (the theme respects the setting): a dialog is there, still, the moment it opens, so
    // that a click lands where the button is and a screenshot or a contrast check needs no wait for a fade
    reducedMotion: 'reduce',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  projects: [{ name: 'chromium' }],
  webServer: Array.from({ length: WORKERS }, (_, worker) => ({
    command: `node scripts/e2e-server.mjs ${portOf(worker)} ${dataDirOf(worker)} ${worker === 0}`,
    url: `http://localhost:${portOf(worker)}/api/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
  })),
});
