// One server of the browser tests (playwright.config.ts starts one per worker): node scripts/e2e-server.mjs <port>
// <data folder> <first>. The first one builds the web app (unless E2E_WEB_BUILT says npm test just did), then every
// one starts the server from the sources on a fresh data folder with the demo data; the others wait for that build (a
// marker file named by E2E_RUN_ID, which the config sets once per run), so that all serve the same files.
import { spawnSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const [port, dataDir, first] = process.argv.slice(2);
const root = path.resolve(import.meta.dirname, '..');
const marker = path.join(root, '.tmp', `e2e-build-${process.env.E2E_RUN_ID ?? 'manual'}`);

fs.mkdirSync(path.join(root, '.tmp'), { recursive: true });
if (first === 'true') {
  for (const f of fs.readdirSync(path.join(root, '.tmp'), { withFileTypes: true })) {
    if (f.name.startsWith('e2e-build-')) fs.rmSync(path.join(root, '.tmp', f.name), { force: true });
  }
  // E2E_WEB_BUILT: npm test has just built it (scripts/test.mjs)
  if (!process.env.E2E_WEB_BUILT) {
    const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  fs.writeFileSync(marker, '');
} else {
  // the first server's build: at most as long as Playwright waits for the server
  while (!fs.existsSync(marker)) await new Promise((r) => setTimeout(r, 200));
}

fs.rmSync(dataDir, { recursive: true, force: true });
const server = spawn('npx', ['tsx', 'apps/server/src/server.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: port,
    SANDBOX_DELAY_MS: '300',
    // Second Shop's list past the 10,000-row cap (invoices-keyset.spec.ts); no other spec counts it
    SEED_EXTRA_INVOICES: '10500',
    LOG_LEVEL: 'warn',
    // the demo users' hashes at scrypt N=2^14 instead of 2^17: every test signs in (apps/server/src/lib/password.ts)
    PASSWORD_HASH_COST: '14',
  },
});
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
