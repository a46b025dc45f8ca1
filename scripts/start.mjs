// npm start: build the web app when its sources are newer than the build, then run the server
// (migrations, demo seed on an empty embedded database, API + web on one port).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { register } from 'tsx/esm/api';

const root = path.resolve(import.meta.dirname, '..');
const built = path.join(root, 'apps/web/dist/index.html');

function newest(dir) {
  let t = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist') continue;
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return t;
}

const stale =
  !fs.existsSync(built) ||
  Math.max(newest(path.join(root, 'apps/web')), newest(path.join(root, 'packages/contracts/src'))) >
    fs.statSync(built).mtimeMs;
if (stale) {
  console.log('Building the web app…');
  const r = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

register();
await import('../apps/server/src/server.ts');
