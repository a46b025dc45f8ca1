/**
 * npm run bench:back-office — what a back-office user downloads before the first screen and how /login and
 * /invoices score.
 *
 * 1. Builds the web app into a folder of its own (.tmp/bench-back-office-web, so that a test run serving
 *    apps/web/dist is not disturbed) with Vite's manifest, and sums the gzipped JS and CSS that index.html makes
 *    the browser fetch at once (entry script, modulepreloads, stylesheets). Budget: INITIAL_BUDGET_KB.
 * 2. From the manifest, what each lazily loaded page adds when it is opened (its chunk and the chunks it imports
 *    that the entry does not already have), heaviest first: the charts of Monitoring must be among them, never
 *    in the entry.
 * 3. Starts the real server as playwright.config.ts does (own data dir and port) on that build and runs
 *    Lighthouse 12 (mobile, simulated throttling, performance only) RUNS times on /login and on /invoices
 *    signed in as the demo admin (the session cookie from POST /api/v1/login, sent as an extra header).
 *    Target: median performance ≥ 90 on both.
 *
 * Options: --no-build (reuse the last build), BENCH_DIST=<dir> (measure that build as it is, e.g. one of an earlier
 * commit), BENCH_RUNS (default 3), BENCH_PORT (default 3160), CHROME_PATH (default /usr/bin/chromium).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const root = path.resolve(import.meta.dirname, '../../..');
// BENCH_DIST: measure an existing build instead (e.g. one of an earlier commit, for a before/after in one sitting)
const OUT = process.env.BENCH_DIST
  ? path.resolve(process.env.BENCH_DIST)
  : path.join(root, '.tmp/bench-back-office-web');
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const PORT = Number(process.env.BENCH_PORT ?? 3160);
const BASE = `http://localhost:${PORT}`;
const DATA_DIR = path.join(root, '.tmp/bench-back-office-data');
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/**
 * The files every back-office page waits for (index.html's entry, modulepreloads and stylesheets): React DOM
 * (~65 KB), the router (~30 KB), TanStack Query, Mantine's core and the styles of the components in use, the app's
 * shell. 200 KB gzipped is 1 s of Lighthouse's slow 4G (1.6 Mbit/s), half the 2 s a first paint may take for a good
 * score; everything a screen needs beyond it (the signed-in layout, charts, date pickers, forms) loads with that
 * screen.
 */
const INITIAL_BUDGET_KB = 200;
const SCORE_TARGET = 90;
const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
].join(' ');

type Row = { what: string; value: string; target: string; ok: boolean };
const rows: Row[] = [];
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const gz = (file: string) => gzipSync(fs.readFileSync(path.join(OUT, file)), { level: 9 }).length;

function build() {
  if ((process.env.BENCH_DIST || process.argv.includes('--no-build')) && fs.existsSync(path.join(OUT, 'index.html')))
    return;
  console.log(`Building the web app into ${path.relative(root, OUT)}…`);
  const r = spawnSync('npx', ['vite', 'build', '--outDir', OUT, '--emptyOutDir', '--manifest'], {
    cwd: path.join(root, 'apps/web'),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (r.status !== 0) throw new Error('web build failed');
}

/**
 * The files index.html makes the browser fetch at once: entry script, modulepreloads, stylesheets, and preloaded
 * scripts and styles (the entry's stylesheet is a preload that the entry applies: vite.config.ts).
 */
function initialFiles(): Set<string> {
  const html = fs.readFileSync(path.join(OUT, 'index.html'), 'utf8');
  const refs = new Set<string>();
  for (const m of html.matchAll(/<script[^>]+src="([^"]+)"/g)) refs.add(m[1]!);
  for (const link of html.match(/<link[^>]+>/g) ?? []) {
    const rel = /\brel="([^"]+)"/.exec(link)?.[1];
    const as = /\bas="([^"]+)"/.exec(link)?.[1];
    const href = /\bhref="([^"]+)"/.exec(link)?.[1];
    const fetchedAtOnce =
      rel === 'modulepreload' || rel === 'stylesheet' || (rel === 'preload' && (as === 'style' || as === 'script'));
    if (href && fetchedAtOnce) refs.add(href);
  }
  return new Set([...refs].filter((r) => /\.(js|css)$/.test(r)).map((r) => r.replace(/^\//, '')));
}

function initialSize(initial: Set<string>) {
  const files = [...initial].map((f) => ({ f, raw: fs.statSync(path.join(OUT, f)).size, gz: gz(f) }));
  files.sort((a, b) => b.gz - a.gz);
  console.log(`\nFiles index.html loads at once (${files.length})`);
  for (const x of files.slice(0, 12))
    console.log(`  ${x.f.padEnd(52)} ${kb(x.raw).padStart(9)}  ${kb(x.gz).padStart(8)} gz`);
  if (files.length > 12)
    console.log(`  … ${files.length - 12} more, ${kb(files.slice(12).reduce((s, x) => s + x.gz, 0))} gz together`);
  const js = files.filter((x) => x.f.endsWith('.js')).reduce((s, x) => s + x.gz, 0);
  const css = files.filter((x) => x.f.endsWith('.css')).reduce((s, x) => s + x.gz, 0);
  const ok = js + css <= INITIAL_BUDGET_KB * 1024;
  rows.push({ what: 'initial JS gzipped', value: kb(js), target: '', ok: true });
  rows.push({ what: 'initial CSS gzipped', value: kb(css), target: '', ok: true });
  rows.push({ what: 'initial JS + CSS gzipped', value: kb(js + css), target: `≤ ${INITIAL_BUDGET_KB} KB`, ok });
  console.log(`\nInitial JS + CSS: ${kb(js + css)} gzipped, budget ${INITIAL_BUDGET_KB} KB: ${ok ? 'PASS' : 'FAIL'}`);
}

/**
 * The files the server names in index.html for a landing address (route-preloads.json of the build, see
 * apps/server/src/app.ts): fetched with the entry, beside the budget above (they are the screen's own files, which
 * the entry would otherwise ask for once it has run).
 */
function routePreloads(initial: Set<string>) {
  const file = path.join(OUT, 'route-preloads.json');
  if (!fs.existsSync(file)) {
    console.log('\n(no route-preloads.json in this build: index.html names no screen files)');
    return;
  }
  type Preloads = Record<string, Record<string, { js: string[]; css: string[] }>>;
  const preloads = JSON.parse(fs.readFileSync(file, 'utf8')) as Preloads;
  console.log('\nNamed by the server in index.html for a landing address, beside the entry (gzipped)');
  for (const [who, addresses] of Object.entries(preloads))
    for (const [address, { js, css }] of Object.entries(addresses)) {
      const files = [...js, ...css].filter((f) => !initial.has(f));
      const total = files.reduce((sum, f) => sum + gz(f), 0);
      console.log(`  ${`${address} (${who})`.padEnd(28)} ${kb(total).padStart(9)}  (${files.length} files)`);
    }
}

type ManifestChunk = {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
};

/** What opening each lazily loaded page adds to what the entry already loaded. */
function lazyPages(initial: Set<string>) {
  if (!fs.existsSync(path.join(OUT, '.vite/manifest.json'))) {
    console.log('\n(no .vite/manifest.json in this build: chunks loaded later not listed)');
    return;
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(OUT, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    ManifestChunk
  >;
  const closure = (key: string, seen = new Set<string>()) => {
    if (seen.has(key)) return seen;
    seen.add(key);
    for (const i of manifest[key]?.imports ?? []) closure(i, seen);
    return seen;
  };
  const filesOf = (keys: Set<string>) => {
    const files = new Set<string>();
    for (const k of keys) {
      const c = manifest[k]!;
      files.add(c.file);
      for (const css of c.css ?? []) files.add(css);
    }
    return files;
  };
  // only the back-office's pages: the payment form's locale chunks are another entry's
  const mainKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry && k.endsWith('index.html'))!;
  const dynamic = new Set<string>();
  const walk = (key: string, seen = new Set<string>()) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const d of manifest[key]?.dynamicImports ?? []) dynamic.add(d);
    for (const i of manifest[key]?.imports ?? []) walk(i, seen);
    for (const d of manifest[key]?.dynamicImports ?? []) walk(d, seen);
  };
  walk(mainKey);
  const pages = [...dynamic].map((key) => {
    const added = [...filesOf(closure(key))].filter((f) => !initial.has(f));
    return {
      name: path.basename(key).replace(/\.[jt]sx?$/, ''),
      file: manifest[key]!.file,
      added: added.reduce((s, f) => s + gz(f), 0),
      count: added.length,
    };
  });
  pages.sort((a, b) => b.added - a.added);
  // what the two measured screens fetch before they show: the entry's files and their screens' chunks
  const first = (label: string, screens: string[]) => {
    const keys = new Set<string>();
    for (const sc of screens) {
      const key = [...dynamic].find((k) => k.endsWith(sc));
      if (key) closure(key, keys);
    }
    const files = new Set([...initial, ...filesOf(keys)]);
    const total = [...files].reduce((sum, f) => sum + gz(f), 0);
    console.log(`  ${label.padEnd(28)} ${kb(total).padStart(9)}  (${files.size} files)`);
  };
  console.log('\nJS + CSS the first screens load (entry and their chunks, gzipped)');
  first('/login', ['features/auth/pages/login-page.tsx']);
  // (the signed-in layout and the list are one dynamic import, app/signed-in-screens.ts; before, two)
  first('/invoices (signed in)', [
    'app/signed-in-screens.ts',
    'app/layout/app-layout.tsx',
    'features/invoices/pages/invoices-page.tsx',
  ]);
  console.log('\nLoaded only when opened (opened first, right after the entry: its chunk and those the entry lacks)');
  for (const p of pages)
    console.log(`  ${p.name.padEnd(28)} ${kb(p.added).padStart(9)}  (${p.count} files, ${p.file})`);
  const lazyFiles = new Set<string>();
  for (const key of dynamic) for (const f of filesOf(closure(key))) if (!initial.has(f)) lazyFiles.add(f);
  const heaviest = [...lazyFiles].map((f) => ({ f, gz: gz(f) })).sort((a, b) => b.gz - a.gz);
  console.log('\nLargest files loaded later (gzipped)');
  for (const x of heaviest.slice(0, 8)) console.log(`  ${x.f.padEnd(52)} ${kb(x.gz).padStart(9)}`);
  const monitoring = pages.find((p) => p.name === 'monitoring-page');
  const chartsInEntry = [...initial].some((f) => /recharts|charts|monitoring/i.test(f));
  rows.push({
    what: 'Monitoring (charts) loaded when opened',
    value: monitoring ? kb(monitoring.added) : 'not lazy',
    target: 'not in entry',
    ok: !!monitoring && !chartsInEntry,
  });
}

async function startServer(): Promise<ChildProcess> {
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
  const server = spawn('npx', ['tsx', 'apps/server/src/server.ts'], {
    cwd: root,
    env: { ...process.env, DATA_DIR, PORT: String(PORT), SANDBOX_DELAY_MS: '300', LOG_LEVEL: 'warn', WEB_DIST: OUT },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${BASE}/api/health`)).ok && fs.existsSync(path.join(DATA_DIR, 'demo-merchant.json')))
        return server;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('server did not start within 120 s');
}

/** The session cookie a browser has after Log In as the demo admin. */
async function sessionCookie(): Promise<string> {
  const res = await fetch(`${BASE}/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'demo-2026' }),
  });
  if (!res.ok) throw new Error(`login: ${res.status} ${await res.text()}`);
  const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]!);
  if (cookies.length === 0) throw new Error('login set no cookie');
  return cookies.join('; ');
}

type Run = { perf: number; fcp: number; lcp: number; tbt: number; cls: number; finalUrl: string };

function lighthouse(url: string, label: string, n: number, headers?: Record<string, string>): Run {
  const out = path.join(root, '.tmp', `lighthouse-back-office-${label}-${n}.json`);
  const args = [
    url,
    '--quiet',
    '--output=json',
    `--output-path=${out}`,
    '--form-factor=mobile',
    '--only-categories=performance',
    `--chrome-flags=${CHROME_FLAGS}`,
  ];
  if (headers) args.push(`--extra-headers=${JSON.stringify(headers)}`);
  // Lighthouse now and then fails to record the trace of a load (NO_NAVSTART): that load is measured again
  for (let attempt = 1; ; attempt++) {
    const r = spawnSync(path.join(root, 'node_modules/.bin/lighthouse'), args, {
      cwd: root,
      env: { ...process.env, CHROME_PATH: CHROME },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (r.status === 0) break;
    if (attempt === 3) throw new Error(`lighthouse failed on ${label} ${attempt} times`);
    console.log(`  ${label} #${n}: Lighthouse failed, measuring that load again`);
  }
  const report = JSON.parse(fs.readFileSync(out, 'utf8')) as {
    finalDisplayedUrl: string;
    categories: Record<string, { score: number | null }>;
    audits: Record<string, { displayValue?: string; numericValue?: number; score: number | null; title: string }>;
  };
  const num = (id: string) => report.audits[id]?.numericValue ?? NaN;
  const run = {
    perf: Math.round((report.categories.performance?.score ?? 0) * 100),
    fcp: num('first-contentful-paint'),
    lcp: num('largest-contentful-paint'),
    tbt: num('total-blocking-time'),
    cls: num('cumulative-layout-shift'),
    finalUrl: report.finalDisplayedUrl,
  };
  console.log(
    `  ${label} #${n}: ${run.perf}  FCP ${(run.fcp / 1000).toFixed(1)} s  LCP ${(run.lcp / 1000).toFixed(1)} s  ` +
      `TBT ${Math.round(run.tbt)} ms  CLS ${run.cls.toFixed(3)}  (${run.finalUrl.replace(BASE, '')})`,
  );
  if (n === 1)
    for (const [id, a] of Object.entries(report.audits))
      if (a.score !== null && a.score < 0.9 && !['final-screenshot', 'screenshot-thumbnails'].includes(id))
        console.log(`    ${id}: ${a.title} ${a.displayValue ?? ''}`);
  return run;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

function summarise(label: string, runs: Run[], expectPath: string) {
  const stat = (xs: number[], f: (x: number) => string) =>
    `${f(median(xs))} (${f(Math.min(...xs))}–${f(Math.max(...xs))})`;
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const perf = runs.map((r) => r.perf);
  const landed = runs.every((r) => new URL(r.finalUrl).pathname === expectPath);
  rows.push({
    what: `Lighthouse performance ${label}, median (min–max) of ${runs.length}`,
    value: stat(perf, String),
    target: `≥ ${SCORE_TARGET}`,
    ok: median(perf) >= SCORE_TARGET && landed,
  });
  rows.push({
    what: `  FCP / LCP / TBT / CLS ${label}`,
    value: [
      stat(
        runs.map((r) => r.fcp),
        s,
      ),
      stat(
        runs.map((r) => r.lcp),
        s,
      ),
      stat(
        runs.map((r) => r.tbt),
        (x) => `${Math.round(x)} ms`,
      ),
      stat(
        runs.map((r) => r.cls),
        (x) => x.toFixed(3),
      ),
    ].join(' / '),
    target: '',
    ok: true,
  });
  if (!landed) console.log(`  ${label}: a run ended on another page than ${expectPath}`);
}

const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
console.log(`load average ${load()} (${os.cpus().length} cores)`);
build();
const initial = initialFiles();
initialSize(initial);
routePreloads(initial);
lazyPages(initial);
const server = await startServer();
try {
  const cookie = await sessionCookie();
  console.log(`\nLighthouse 12 (mobile, ${RUNS} runs each)…`);
  const login: Run[] = [];
  const invoices: Run[] = [];
  // alternated, so that a burst of load on the shared machine does not land on one page only
  for (let i = 1; i <= RUNS; i++) {
    login.push(lighthouse(`${BASE}/login`, 'login', i));
    invoices.push(lighthouse(`${BASE}/invoices`, 'invoices', i, { Cookie: cookie }));
  }
  summarise('/login', login, '/login');
  summarise('/invoices (signed in)', invoices, '/invoices');
} finally {
  if (server.pid) process.kill(-server.pid, 'SIGTERM');
}

console.log(`\nload average ${load()}`);
const w = Math.max(...rows.map((r) => r.what.length));
console.log(`\n| ${'Back-office first load'.padEnd(w)} | value | target | |`);
console.log(`|${'-'.repeat(w + 2)}|---|---|---|`);
for (const r of rows)
  console.log(`| ${r.what.padEnd(w)} | ${r.value} | ${r.target} | ${r.target ? (r.ok ? 'PASS' : 'FAIL') : ''} |`);
process.exitCode = rows.every((r) => r.ok) ? 0 : 1;
