#!/usr/bin/env node
// The e2e suite drives Debian's Chromium package (not a browser Playwright downloads); make sure it is there before
// Playwright starts.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const CHROMIUM = '/usr/bin/chromium';

if (existsSync(CHROMIUM)) process.exit(0);

if (process.getuid?.() === 0) {
  console.log(`${CHROMIUM} not found: installing Debian's chromium package…`);
  const run = (cmd, args) =>
    spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  const update = run('apt-get', ['update']);
  const install = update.status === 0 ? run('apt-get', ['install', '-y', 'chromium']) : update;
  if (install.status === 0 && existsSync(CHROMIUM)) process.exit(0);
  console.error(`Installing chromium failed; ${CHROMIUM} is still missing.`);
  process.exit(1);
}

console.error(`${CHROMIUM} not found. Install it with:\n\n  sudo apt-get install -y chromium\n`);
process.exit(1);
