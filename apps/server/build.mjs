// npm run build -w apps/server: the server as plain JavaScript for `node` (production; tsx is for development).
//   node build.mjs [outdir]        outdir defaults to apps/server/dist
// esbuild bundles our own code and the workspace package @paydesk/contracts (TypeScript source, never built on its
// own) into one ESM file per entry point; every npm package stays an import resolved from node_modules at run time.
// Next to the bundles: the SQL migrations (create-db.ts reads `${import.meta.dirname}/migrations`) and the embedded
// database's child process (pglite-process.js, forked by create-db.ts).
import fs from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';

const serverDir = import.meta.dirname;
const contracts = path.resolve(serverDir, '../../packages/contracts');

/** Entry points, each to `${outdir}/${name}.js`. */
export const ENTRIES = {
  server: 'src/server.ts',
  'pglite-process': 'src/db/pglite-process.ts',
  'create-admin': 'src/scripts/create-admin.ts',
  'demo-invoice': 'src/scripts/demo-invoice.ts',
  'rotate-data-key': 'src/scripts/rotate-data-key.ts',
  backup: 'src/scripts/backup.ts',
  restore: 'src/scripts/restore.ts',
};

/** Every file the build reads: when one is newer than the build, it is stale (scripts/start.mjs). */
export const SOURCES = [path.join(serverDir, 'src'), path.join(contracts, 'src'), path.join(serverDir, 'build.mjs')];

export async function buildServer(outdir = path.join(serverDir, 'dist')) {
  const started = Date.now();
  // an earlier build's files go (a removed module must not linger), nothing else in the folder
  if (fs.existsSync(outdir)) {
    for (const f of fs.readdirSync(outdir)) {
      if (f === 'migrations' || /\.js(\.map)?$/.test(f))
        fs.rmSync(path.join(outdir, f), { recursive: true, force: true });
    }
  }
  // imported here, not at the top: scripts/start.mjs reads SOURCES on installs without dev dependencies
  const esbuild = await import('esbuild');
  const result = await esbuild
    .build({
      absWorkingDir: serverDir,
      entryPoints: ENTRIES,
      outdir,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20.19',
      // npm packages are not bundled: they were not written with a bundler in mind (files read next to their own code,
      // native or wasm parts), and node_modules is there at run time anyway
      packages: 'external',
      // …except the workspace package of shared schemas, which is TypeScript source (aliases apply before `packages`)
      alias: { '@paydesk/contracts': path.join(contracts, 'src') },
      // no keepNames: it wraps every function the server creates, per request too, in a call that renames it (≈ 1 % of
      // the merchant API's CPU); nothing here reads a function's name, and stack traces map back through the source map
      sourcemap: 'linked',
      sourcesContent: false,
      legalComments: 'none',
      logLevel: 'warning',
      metafile: true,
    })
    // esbuild's service process would otherwise live as long as the server that scripts/start.mjs runs next
    .finally(() => esbuild.stop());
  fs.cpSync(path.join(serverDir, 'src/db/migrations'), path.join(outdir, 'migrations'), { recursive: true });

  // an import that node would not find from the output folder fails here rather than at start-up in production
  const missing = new Set();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const imp of output.imports) {
      if (!imp.external || isBuiltin(imp.path)) continue;
      const name = imp.path.split('/', imp.path.startsWith('@') ? 2 : 1).join('/');
      if (!resolvable(outdir, name)) missing.add(name);
    }
  }
  if (missing.size > 0) {
    throw new Error(
      `the server imports packages not installed where ${outdir} can find them: ${[...missing].join(', ')}`,
    );
  }
  return { outdir, ms: Date.now() - started };
}

/** Does node's lookup (node_modules of the folder and of each folder above it) find the package? */
function resolvable(from, name) {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'node_modules', name, 'package.json'))) return true;
    if (path.dirname(dir) === dir) return false;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const outArg = process.argv[2];
  const { outdir, ms } = await buildServer(outArg ? path.resolve(outArg) : undefined);
  console.log(`Server built into ${path.relative(process.cwd(), outdir) || '.'} in ${ms} ms`);
}
