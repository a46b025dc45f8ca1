import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// node-postgres' own conversion of a parameter to the text it sends
// @ts-expect-error pg ships no types for its utils
import { prepareValue } from 'pg/lib/utils.js';
import { cpuTimes } from './lib';

/** A pgbench script file and the -D variables it reads. */
export type PgbenchScript = { file: string; defines: string[] };

/**
 * A statement as a pgbench command: each parameter becomes the SQL expression `substitute` gives for it (a pgbench
 * variable such as `:inv_id`, or SQL like `gen_random_uuid()`), or else a -D variable holding the very text
 * node-postgres sent, so that pgbench sends it as an untyped parameter just as the server does (-M prepared).
 */
export function pgbenchCommand(
  text: string,
  params: unknown[],
  tag: string,
  defines: string[],
  substitute: (value: unknown) => string | undefined = () => undefined,
): string {
  return (
    params
      .map((p, i) => ({ p, n: i + 1 }))
      // $10 before $1
      .reverse()
      .reduce((out, { p, n }) => {
        let expr = substitute(p);
        if (expr === undefined && (p === null || p === undefined)) expr = 'NULL';
        if (expr === undefined) {
          expr = `:${tag}${n}`;
          defines.push('-D', `${tag}${n}=${String(prepareValue(p))}`);
        }
        return out.replaceAll(`$${n}`, expr);
      }, text)
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/** Writes script lines to a file of their own for pgbench. */
export function writePgbenchScript(name: string, lines: string[], defines: string[]): PgbenchScript {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pgbench-')), name);
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return { file, defines };
}

/** pgbench on a database with a script (named prepared statements, as the server runs them); tps and PostgreSQL CPU. */
export function runPgbench(url: string, script: PgbenchScript, clients: number, seconds: number, extra: string[] = []) {
  const before = cpuTimes(process.pid).postgresMs;
  const out = execFileSync(
    'pgbench',
    [
      '-n',
      '-M',
      'prepared',
      '-c',
      String(clients),
      '-j',
      '2',
      '-T',
      String(seconds),
      ...script.defines,
      ...extra,
      '-f',
      script.file,
      url,
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 },
  );
  const after = cpuTimes(process.pid).postgresMs;
  const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(out)?.[1]);
  const done = Number(/number of transactions actually processed: (\d+)/.exec(out)?.[1]);
  const failed = Number(/number of failed transactions: (\d+)/.exec(out)?.[1] ?? 0);
  const latency = Number(/latency average = ([\d.]+) ms/.exec(out)?.[1]);
  if (!tps || !done) throw new Error(`pgbench printed no result:\n${out}`);
  return { tps, done, failed, latencyMs: latency, postgresCpuMs: (after - before) / done, output: out };
}
