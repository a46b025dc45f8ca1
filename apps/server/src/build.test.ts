import { randomBytes } from 'node:crypto';
/**
 * The compiled server, what `npm start` runs: apps/server/build.mjs bundles it into a folder of its own and plain
 * `node` (no tsx) runs it in production mode, on an embedded database in a temporary folder (or a fresh database of
 * DATABASE_URL's server). The compiled create-admin migrates that database and adds the first admin; the server then
 * prints its banner after its log lines and answers over HTTP.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TMP_DIR } from '../test/paths';
import { emptyDatabase } from '../test/global-setup';
import { freePort } from '../test/server-process';

const SERVER_DIR = path.resolve(import.meta.dirname, '..');
// inside the repository, as apps/server/dist is: node finds the external packages in node_modules above it
const outdir = path.join(TMP_DIR, `build-test-${process.pid}`);
const dataDir = path.join(TMP_DIR, `build-test-data-${process.pid}`);
const adminUrl = process.env.DATABASE_URL;
let database: Awaited<ReturnType<typeof emptyDatabase>> | undefined;

let child: ChildProcess | undefined;
let output = '';
let base = '';

beforeAll(async () => {
  execFileSync(process.execPath, [path.join(SERVER_DIR, 'build.mjs'), outdir], { cwd: SERVER_DIR, stdio: 'pipe' });
  let databaseUrl: string | undefined;
  if (adminUrl) {
    database = await emptyDatabase(adminUrl, 'paydesk_build');
    databaseUrl = database.url;
  }
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    NODE_ENV: 'production',
    PUBLIC_URL: base,
    HOST: '127.0.0.1',
    PORT: String(port),
    WORKERS: 'false',
    LOG_LEVEL: 'info',
    DATA_DIR: dataDir,
    // production refuses to start without a master key for the requisites
    DATA_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  // the compiled command-line script first: it migrates the empty database and creates the first admin
  execFileSync(process.execPath, [path.join(outdir, 'create-admin.js'), '--username', 'first-admin'], {
    cwd: SERVER_DIR,
    env: { ...env, ADMIN_PASSWORD: 'a long enough secret for the build test' },
    stdio: 'pipe',
  });
  child = spawn(process.execPath, [path.join(outdir, 'server.js')], {
    cwd: SERVER_DIR,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (b: Buffer) => (output += b.toString('utf8')));
  child.stderr!.on('data', (b: Buffer) => (output += b.toString('utf8')));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start banner in 60 s:\n${output}`)), 60_000);
    const check = () => {
      if (output.includes('Paydesk is running at')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child!.stdout!.on('data', check);
    child!.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the compiled server exited (${code}):\n${output}`));
    });
  });
}, 90_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child!.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }
  await database?.drop();
  fs.rmSync(outdir, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

describe('the compiled server (npm run build → node apps/server/dist/server.js)', () => {
  it('is plain JavaScript that bundles contracts and leaves npm packages (never tsx) to node_modules', () => {
    const files = fs.readdirSync(outdir);
    expect(files).toEqual(
      expect.arrayContaining(['server.js', 'pglite-process.js', 'create-admin.js', 'demo-invoice.js']),
    );
    expect(fs.readdirSync(path.join(outdir, 'migrations')).some((f) => f.endsWith('.sql'))).toBe(true);
    const server = fs.readFileSync(path.join(outdir, 'server.js'), 'utf8');
    expect(server).toMatch(/^import Fastify from "fastify";$/m);
    expect(server).not.toMatch(/from "@paydesk\/contracts"|from "tsx|"\.\/[^"]*\.ts"/);
  });

  it('starts with node, prints its banner last, and answers over HTTP', async () => {
    const banner = output.indexOf('Paydesk is running at');
    expect(output.indexOf('Server listening at')).toBeGreaterThan(-1);
    expect(output.indexOf('Server listening at')).toBeLessThan(banner);
    expect(output.slice(banner)).toMatch(new RegExp(`^Paydesk is running at ${base}\\n\\nDatabase: `));

    const health = await fetch(`${base}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ ok: true });

    const me = await fetch(`${base}/api/v1/people/me`);
    expect(me.status).toBe(401);
    expect(await me.json()).toMatchObject({ error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
  });
});
