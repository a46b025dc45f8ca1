// Runs a command and says where the machine's CPU went while it ran (Linux /proc): node scripts/cpu-by-process.mjs
// <command> [args…], e.g. `node scripts/cpu-by-process.mjs npx playwright test`. Prints the wall time, the machine's
// busy CPU seconds (all processes: /proc/stat), its busy share in each 30 s of the run (where the cores idled) and the
// CPU seconds of each kind of process (Chromium's renderers, browser and GPU processes, the servers, PGlite, the test
// runners), sampled every 250 ms from /proc/<pid>/stat. A process seen once is counted to its last sample: one that
// lives less than 250 ms is missed (the machine total has it). The figures of docs/benchmarks.md, "Test suite", come
// from it.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { clearInterval, setInterval } from 'node:timers';

const TICK = 100; // USER_HZ on Linux
const WINDOW_MS = 30_000;
const [cmd, ...args] = process.argv.slice(2);
if (!cmd || cmd === '--help') {
  console.log('usage: node scripts/cpu-by-process.mjs <command> [args…]');
  process.exit(cmd ? 0 : 2);
}

const busy = () => {
  const [, user, nice, system, , , irq, softirq] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/);
  return (Number(user) + Number(nice) + Number(system) + Number(irq) + Number(softirq)) / TICK;
};

/** What a process is, from its command line. */
function kindOf(cmdline) {
  if (cmdline.includes('chromium')) {
    const type = /--type=([a-z-]+)/.exec(cmdline)?.[1];
    return type ? `chromium ${type}` : 'chromium browser';
  }
  if (cmdline.includes('pglite-process')) return 'PGlite';
  if (/server\.(ts|js)|e2e-server/.test(cmdline)) return 'server';
  if (cmdline.includes('postgres')) return 'PostgreSQL';
  if (/playwright|vitest/.test(cmdline)) return 'test runner';
  if (/node|tsx|esbuild|vite/.test(cmdline)) return 'other node';
  return 'other';
}

const seen = new Map(); // pid → { kind, cpu }
function sample() {
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cpu = (Number(fields[11]) + Number(fields[12])) / TICK;
      let s = seen.get(pid);
      if (!s) {
        // a process that has exited keeps an empty command line until reaped: it keeps the kind it was seen with
        const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
        if (!cmdline) continue;
        s = { kind: kindOf(cmdline), cpu };
        seen.set(pid, s);
      }
      s.cpu = cpu;
    } catch {
      // gone between the listing and the read
    }
  }
}

/** The machine's busy share of its cores in each window of the run, in per cent. */
const windows = [];
let windowStart = { at: Date.now(), busy: busy() };
function closeWindow() {
  const now = { at: Date.now(), busy: busy() };
  const seconds = (now.at - windowStart.at) / 1000;
  if (seconds > 0) windows.push(((now.busy - windowStart.busy) / seconds / os.cpus().length) * 100);
  windowStart = now;
}

sample();
const before = new Map([...seen].map(([pid, s]) => [pid, s.cpu]));
const started = windowStart.at;
const machine = windowStart.busy;
const timer = setInterval(() => {
  sample();
  if (Date.now() - windowStart.at >= WINDOW_MS) closeWindow();
}, 250);
const child = spawn(cmd, args, { stdio: 'inherit' });
const code = await new Promise((resolve) => child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
clearInterval(timer);
sample();
closeWindow();
const byKind = new Map();
for (const [pid, s] of seen) {
  // a process born during the run spent all of its CPU in it
  const spent = s.cpu - (before.get(pid) ?? 0);
  byKind.set(s.kind, (byKind.get(s.kind) ?? 0) + spent);
}
const wall = (Date.now() - started) / 1000;
const total = busy() - machine;
console.log(
  `\n${wall.toFixed(0)} s wall, ${total.toFixed(0)} CPU s on the machine's ${os.cpus().length} cores ` +
    `(${((total / wall / os.cpus().length) * 100).toFixed(0)} % busy)`,
);
console.log(`  busy per ${WINDOW_MS / 1000} s: ${windows.map((w) => w.toFixed(0)).join(' ')} %`);
for (const [kind, s] of [...byKind].sort((a, b) => b[1] - a[1])) {
  if (s >= 0.5) console.log(`  ${kind.padEnd(22)} ${s.toFixed(0).padStart(6)} CPU s`);
}
process.exit(code);
