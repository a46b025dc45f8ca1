// npm test: unit (contracts, web), API on the embedded PGlite (or PostgreSQL when DATABASE_URL is set),
// then browser end-to-end tests in Debian's Chromium.
import { spawnSync } from 'node:child_process';

const run = (cmd, args, env = {}) => {
  console.log(`\n$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

run('npx', ['vitest', 'run']);
run('npm', ['run', 'test:e2e']);
