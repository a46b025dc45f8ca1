// npm start: build what is missing or older than its sources — the web app (Vite) and the server (esbuild, plain
// JavaScript in apps/server/dist) — then run the compiled server with node: migrations, the demo seed on an empty
// embedded database, API + web on one port. tsx is for development only (npm run dev, tests, benchmarks).
//   node scripts/start.mjs                    the server (npm start)
//   node scripts/start.mjs create-admin ARGS  a compiled command-line script (npm run create-admin / demo:invoice)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildServer, SOURCES as SERVER_SOURCES } from '../apps/server/build.mjs';

const root = path.resolve(import.meta.dirname, '..');
const serverDist = path.join(root, 'apps/server/dist');
const SCRIPTS = ['create-admin', 'demo-invoice', 'rotate-data-key', 'backup', 'restore'];

const script = process.argv[2];
if (script !== undefined && !SCRIPTS.includes(script)) {
  console.error(`usage: node scripts/start.mjs [${SCRIPTS.join(' | ')}] [arguments]`);
  process.exit(2);
}

/** Newest modification time of a file, or of the files in a folder (not node_modules, not build output). */
function newest(p) {
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let t = 0;
  for (const e of fs.readdirSync(p, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist') continue;
    t = Math.max(t, newest(path.join(p, e.name)));
  }
  return t;
}
const stale = (built, sources) =>
  !fs.existsSync(built) || Math.max(...sources.map(newest)) > fs.statSync(built).mtimeMs;

if (
  !script &&
  stale(path.join(root, 'apps/web/dist/index.html'), [
    path.join(root, 'apps/web'),
    path.join(root, 'packages/contracts/src'),
  ])
) {
  console.log('Building the web app…');
  const r = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (stale(path.join(serverDist, 'server.js'), SERVER_SOURCES)) {
  console.log('Building the server…');
  try {
    const { ms } = await buildServer(serverDist);
    console.log(`Server built into apps/server/dist in ${ms} ms`);
  } catch (err) {
    const noEsbuild = err?.code === 'ERR_MODULE_NOT_FOUND' && /esbuild/.test(err.message);
    console.error(
      noEsbuild
        ? '\nThe server needs building and esbuild is not installed: run `npm ci` (with dev dependencies), then again.\n'
        : `\nThe server build failed: ${err?.message ?? err}\n`,
    );
    process.exit(1);
  }
}

// The compiled file takes this script's place in process.argv (cluster workers fork it, not this script); stack
// traces name the TypeScript sources, here and in the processes the server starts (workers, the embedded database).
const entry = path.join(serverDist, `${script ?? 'server'}.js`);
process.setSourceMapsEnabled(true);
process.env.NODE_OPTIONS = [process.env.NODE_OPTIONS, '--enable-source-maps'].filter(Boolean).join(' ');
process.argv.splice(1, script ? 2 : 1, entry);
await import(pathToFileURL(entry).href);
