// npm test: the web build, unit (contracts, web), API on the embedded PGlite (or PostgreSQL when DATABASE_URL is
// set), then browser end-to-end tests in Debian's Chromium.
import { spawnSync } from 'node:child_process';

const run = (cmd, args, env = {}) => {
  console.log(`\n$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

// the web app first: the server suite checks how its pages and assets are served (http-headers.test.ts), and the
// browser tests' servers then serve this build instead of making their own (scripts/e2e-server.mjs)
run('npm', ['run', 'build', '-w', 'apps/web']);
run('npx', ['vitest', 'run']);
run('npm', ['run', 'test:e2e'], { E2E_WEB_BUILT: '1' });
