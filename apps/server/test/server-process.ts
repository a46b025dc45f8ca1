import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { inject } from 'vitest';
import { TEST_KEY_FILE, TMP_DIR } from './paths';

/*
 * Real server processes for the tests that need several (scale-out, concurrent start): the command production runs,
 * `tsx src/server.ts` (the apps/server "start" script), on a PostgreSQL database, on a free port.
 */

const SERVER_DIR = path.resolve(import.meta.dirname, '..');
const TSX_CLI = path.resolve(SERVER_DIR, '../../node_modules/tsx/dist/cli.mjs');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A TCP port of 127.0.0.1 free at the moment of asking (for a server or a PostgreSQL cluster to listen on). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

export type ServerProcess = {
  name: string;
  dataDir: string;
  child: ChildProcess;
  /** http://127.0.0.1:<port> once it serves */
  base: string;
  /** every line it printed, stdout and stderr */
  output: string[];
  exited: Promise<number | null>;
  alive: boolean;
};

/**
 * Starts a server process on `databaseUrl` and waits for its "running at" line. `env` adds to or overrides the
 * defaults: development mode without demo data or workers, warnings and up logged.
 *
 * `demoData` (the embedded database, `databaseUrl` ''): its data folder starts as the suite's template, migrated and
 * seeded once a run (test/global-setup.ts), with the demo merchant's file beside it, as `npm start` leaves a first
 * start: a copy of a folder instead of the 16 s of a first start's initdb, migrations and seed.
 */
export async function startServer(
  name: string,
  databaseUrl: string,
  env: NodeJS.ProcessEnv = {},
  opts: { serverDir?: string; demoData?: boolean } = {},
): Promise<ServerProcess> {
  const dataDir = path.join(TMP_DIR, `server-${process.pid}-${name}`);
  fs.mkdirSync(dataDir, { recursive: true });
  if (opts.demoData) {
    if (databaseUrl) throw new Error("demoData is the embedded database's: a PostgreSQL database seeds itself");
    fs.rmSync(path.join(dataDir, 'pgdata'), { recursive: true, force: true });
    fs.cpSync(inject('templateFolder'), path.join(dataDir, 'pgdata'), { recursive: true });
    fs.copyFileSync(inject('demoFile'), path.join(dataDir, 'demo-merchant.json'));
  }
  // serverDir: another checkout's apps/server (a previous release, with its own node_modules)
  const child = spawn(process.execPath, [TSX_CLI, 'src/server.ts'], {
    cwd: opts.serverDir ?? SERVER_DIR,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TMPDIR: process.env.TMPDIR,
      NODE_ENV: 'development', // not production: the demo receiver and dev provider tokens are on
      DATABASE_URL: databaseUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      WORKERS: 'false',
      WEB_CONCURRENCY: '1',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      // behind a proxy, as in production: customers of the payment form are told apart by X-Forwarded-For
      TRUST_PROXY: 'true',
      DATA_DIR: dataDir,
      // the template's requisites were encrypted under the tests' master key
      DATA_ENCRYPTION_KEY_FILE: TEST_KEY_FILE,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const proc: ServerProcess = {
    name,
    dataDir,
    child,
    base: '',
    output,
    alive: true,
    exited: new Promise((resolve) =>
      child.on('exit', (code) => {
        proc.alive = false;
        resolve(code);
      }),
    ),
  };
  let pending = '';
  const onData = (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop()!;
    output.push(...lines.filter(Boolean));
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const deadline = Date.now() + 90_000;
  for (;;) {
    const line = output.find((l) => l.includes('Paydesk is running at'));
    const m = line?.match(/running at http:\/\/[^:]+:(\d+)/);
    if (m) {
      proc.base = `http://127.0.0.1:${m[1]}`;
      return proc;
    }
    if (!proc.alive || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server ${name} did not start:\n${output.join('\n')}`);
    }
    await sleep(100);
  }
}

/** SIGTERM (the server's graceful shutdown), SIGKILL after 15 s; its data folder goes unless kept. */
export async function stopServer(p: ServerProcess, opts: { keepData?: boolean } = {}) {
  if (p.alive) {
    p.child.kill('SIGTERM');
    const timer = setTimeout(() => p.child.kill('SIGKILL'), 15_000);
    await p.exited;
    clearTimeout(timer);
  }
  if (!opts.keepData) fs.rmSync(p.dataDir, { recursive: true, force: true });
}

/** Runs a command-line script of the server (src/scripts/<name>.ts) as `npm run <name>` would, to its end. */
export function runScript(
  name: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [TSX_CLI, `src/scripts/${name}.ts`, ...args],
      {
        cwd: SERVER_DIR,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR, ...env },
        timeout: 120_000,
      },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}
