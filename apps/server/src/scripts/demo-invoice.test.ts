import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The command line of `npm run demo:invoice`: help and usage errors answer without a stack trace. */
const script = path.join(import.meta.dirname, 'demo-invoice.ts');
const tsx = createRequire(import.meta.url).resolve('tsx/cli');

// DATA_DIR that holds no demo file: should the script ever get past its arguments, it stops there, calling no server
const run = (...args: string[]) =>
  spawnSync(process.execPath, [tsx, script, ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, DATA_DIR: path.join(import.meta.dirname, 'no-such-data-dir') },
  });

describe('demo-invoice command line', () => {
  it('--help prints the usage and exits 0', () => {
    for (const flag of ['--help', '-h']) {
      const res = run(flag);
      expect(res.status, res.stderr).toBe(0);
      expect(res.stdout).toMatch(/^Usage: npm run demo:invoice -- \[options\]/);
      expect(res.stdout).toContain('--amount MINOR');
      expect(res.stderr).toBe('');
    }
  });

  it('an unknown option prints one line of error and the usage, exits 2, no stack trace', () => {
    const res = run('--nope');
    expect(res.status).toBe(2);
    expect(res.stdout).toBe('');
    const [first, blank, usage] = res.stderr.split('\n');
    expect(first).toMatch(/^demo-invoice: Unknown option '--nope'/);
    expect(blank).toBe('');
    expect(usage).toBe('Usage: npm run demo:invoice -- [options]');
    expect(res.stderr).not.toMatch(/ERR_PARSE_ARGS|\n\s+at /);
  });

  it('an option without its value and a stray argument are usage errors too', () => {
    for (const args of [['--amount'], ['deposit']]) {
      const res = run(...args);
      expect(res.status, args.join(' ')).toBe(2);
      expect(res.stderr).toMatch(/^demo-invoice: .+\n\nUsage: /);
      expect(res.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
