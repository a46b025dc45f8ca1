/**
 * npm run bench:payment-form — what a customer downloads for /payment/:formId and how the page scores.
 *
 * 1. Builds the web app and sums the gzipped JS and CSS that dist/payment.html loads (entry script,
 *    modulepreloads, stylesheets). Target: under 100 KB.
 * 2. Starts the real server as playwright.config.ts does (own data dir and port), creates invoices
 *    through the signed merchant API and runs Lighthouse 12 (mobile; performance and accessibility,
 *    target ≥ 95 each) and axe (serious and critical violations on every step, target 0).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { createInvoice, demoMerchant, type InvoiceOptions } from '../../../e2e/support/merchant-api';

const root = path.resolve(import.meta.dirname, '../../..');
const dist = path.join(root, 'apps/web/dist');
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const PORT = Number(process.env.BENCH_PORT ?? 3150);
const BASE = `http://localhost:${PORT}`;
const DATA_DIR = path.join(root, '.tmp/bench-payment-form-data');
const BUDGET_KB = 100;
const SCORE_TARGET = 95;

type Row = { what: string; value: string; target: string; ok: boolean };
const rows: Row[] = [];

function build() {
  if (process.argv.includes('--no-build') && fs.existsSync(path.join(dist, 'payment.html'))) return;
  console.log('Building the web app…');
  const r = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) throw new Error('web build failed');
}

/** The files payment.html makes the browser fetch at once: entry script, modulepreloads, stylesheets. */
function bundleSize() {
  const html = fs.readFileSync(path.join(dist, 'payment.html'), 'utf8');
  const refs = new Set<string>();
  for (const m of html.matchAll(/<script[^>]+src="([^"]+)"/g)) refs.add(m[1]!);
  for (const m of html.matchAll(/<link[^>]+rel="(?:modulepreload|stylesheet)"[^>]*href="([^"]+)"/g)) refs.add(m[1]!);
  for (const m of html.matchAll(/<link[^>]+href="([^"]+)"[^>]*rel="(?:modulepreload|stylesheet)"/g)) refs.add(m[1]!);
  const files = [...refs]
    .filter((r) => /\.(js|css)$/.test(r))
    .map((ref) => {
      const buf = fs.readFileSync(path.join(dist, ref.replace(/^\//, '')));
      return { ref, raw: buf.length, gz: gzipSync(buf, { level: 9 }).length };
    });
  console.log('\nFiles loaded by /payment/:formId');
  for (const f of files)
    console.log(
      `  ${f.ref.padEnd(44)} ${(f.raw / 1024).toFixed(1).padStart(7)} KB  ${(f.gz / 1024).toFixed(1).padStart(6)} KB gz`,
    );
  const js = files.filter((f) => f.ref.endsWith('.js')).reduce((s, f) => s + f.gz, 0) / 1024;
  const css = files.filter((f) => f.ref.endsWith('.css')).reduce((s, f) => s + f.gz, 0) / 1024;
  rows.push({ what: 'JS gzipped', value: `${js.toFixed(1)} KB`, target: '', ok: true });
  rows.push({ what: 'CSS gzipped', value: `${css.toFixed(1)} KB`, target: '', ok: true });
  rows.push({
    what: 'JS + CSS gzipped',
    value: `${(js + css).toFixed(1)} KB`,
    target: `< ${BUDGET_KB} KB`,
    ok: js + css < BUDGET_KB,
  });
}

async function startServer(): Promise<ChildProcess> {
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
  const server = spawn('npx', ['tsx', 'apps/server/src/server.ts'], {
    cwd: root,
    env: { ...process.env, DATA_DIR, PORT: String(PORT), SANDBOX_DELAY_MS: '300', LOG_LEVEL: 'warn', WEB_DIST: dist },
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

function lighthouse(url: string, label: string) {
  const out = path.join(root, '.tmp', `lighthouse-${label}.json`);
  const r = spawnSync(
    path.join(root, 'node_modules/.bin/lighthouse'),
    [
      url,
      '--quiet',
      '--output=json',
      `--output-path=${out}`,
      '--form-factor=mobile',
      '--only-categories=performance,accessibility',
      '--chrome-flags=--headless --no-sandbox --disable-gpu',
    ],
    { cwd: root, env: { ...process.env, CHROME_PATH: CHROME }, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (r.status !== 0) throw new Error(`lighthouse failed on ${label}`);
  const report = JSON.parse(fs.readFileSync(out, 'utf8')) as {
    categories: Record<string, { score: number | null }>;
    audits: Record<string, { displayValue?: string; score: number | null; title: string }>;
  };
  const score = (c: string) => Math.round((report.categories[c]?.score ?? 0) * 100);
  const perf = score('performance');
  const a11y = score('accessibility');
  const metric = (id: string) => report.audits[id]?.displayValue ?? '-';
  rows.push({
    what: `Lighthouse performance (${label})`,
    value: String(perf),
    target: `≥ ${SCORE_TARGET}`,
    ok: perf >= SCORE_TARGET,
  });
  rows.push({
    what: `Lighthouse accessibility (${label})`,
    value: String(a11y),
    target: `≥ ${SCORE_TARGET}`,
    ok: a11y >= SCORE_TARGET,
  });
  rows.push({
    what: `  FCP / LCP / TBT / CLS (${label})`,
    value: `${metric('first-contentful-paint')} / ${metric('largest-contentful-paint')} / ${metric('total-blocking-time')} / ${metric('cumulative-layout-shift')}`,
    target: '',
    ok: true,
  });
  for (const [id, a] of Object.entries(report.audits)) {
    if (a.score !== null && a.score < 0.9 && !['final-screenshot', 'screenshot-thumbnails'].includes(id))
      console.log(`  [${label}] ${id}: ${a.title} ${a.displayValue ?? ''}`);
  }
}

async function axeSteps() {
  const browser = await chromium.launch({
    executablePath: CHROME,
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  const merchant = demoMerchant(DATA_DIR);
  const found: string[] = [];
  let checked = 0;
  const scan = async (page: Page, step: string) => {
    const res = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
      .analyze();
    checked++;
    for (const v of res.violations) {
      if (v.impact === 'serious' || v.impact === 'critical')
        found.push(`${step}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    }
  };
  const open = async (opts: InvoiceOptions, lang = 'en') => {
    const inv = await createInvoice(BASE, opts, merchant);
    const page = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    await page.goto(`${BASE}/payment/${inv.formId}?lang=${lang}`);
    await page.locator('main h1:not(.pf-sr-only)').waitFor({ timeout: 60_000 });
    return page;
  };
  for (const lang of ['en', 'ru', 'uz']) {
    const page = await open({ flowType: 'DEPOSIT', amount: 1_000_000, canChangeAmount: true }, lang);
    await scan(page, `${lang} method`);
    await page.getByRole('button', { name: /Humo/ }).click();
    await page.locator('.pf-stepper').waitFor();
    await scan(page, `${lang} init`);
    await page.locator('.pf-primary').click();
    await page.locator('.pf-requisites').waitFor();
    await page.locator('.pf-instructions, .pf-requisites').first().waitFor();
    await scan(page, `${lang} credential (deposit)`);
    await page.close();
  }
  const rub = await open({
    flowType: 'DEPOSIT',
    currency: 'RUB',
    test: false,
    amount: 500_000,
    paymentMethod: 'SBERRUB',
  });
  await rub.locator('.pf-requisites').waitFor();
  await rub.locator('.pf-instructions summary').click();
  await scan(rub, 'credential (Sberbank deposit, instructions open)');
  await rub.close();
  const sbp = await open({
    flowType: 'WITHDRAWAL',
    currency: 'RUB',
    test: false,
    amount: 500_000,
    paymentMethod: 'SBPRUB',
  });
  await sbp.locator('.pf-banks-list').waitFor();
  await sbp.locator('.pf-withdrawal .pf-primary').click();
  await sbp.locator('.pf-error').first().waitFor();
  await scan(sbp, 'credential (SBP withdrawal, errors shown)');
  await sbp.close();
  const card = await open({ flowType: 'WITHDRAWAL', amount: 1_500_000, paymentMethod: 'HUMOUZS' });
  await card.getByRole('textbox', { name: 'Card number' }).fill('4111111111111111');
  await card.locator('.pf-withdrawal .pf-primary').click();
  await card.locator('.pf-spinner').waitFor();
  await scan(card, 'processing');
  await card.getByRole('heading', { name: 'Success' }).waitFor({ timeout: 20_000 });
  await scan(card, 'success');
  await card.close();
  const fail = await (await browser.newContext()).newPage();
  await fail.goto(`${BASE}/payment/NoSuchFormIdAtAll0123456789`);
  await fail.getByRole('heading', { name: 'Fail' }).waitFor();
  await scan(fail, 'fail');
  await fail.close();
  await browser.close();
  rows.push({
    what: `axe serious + critical violations (${checked} screens)`,
    value: String(found.length),
    target: '0',
    ok: found.length === 0,
  });
  for (const f of found) console.log(`  axe: ${f}`);
}

build();
bundleSize();
const server = await startServer();
try {
  const merchant = demoMerchant(DATA_DIR);
  const several = await createInvoice(
    BASE,
    { flowType: 'DEPOSIT', amount: 1_000_000, canChangeAmount: true },
    merchant,
  );
  const fixed = await createInvoice(
    BASE,
    { flowType: 'DEPOSIT', amount: 2_500_000, paymentMethod: 'HUMOUZS' },
    merchant,
  );
  console.log('\nLighthouse 12 (mobile)…');
  lighthouse(`${BASE}/payment/${several.formId}`, 'method step');
  lighthouse(`${BASE}/payment/${fixed.formId}`, 'requisites step');
  console.log('axe…');
  await axeSteps();
} finally {
  if (server.pid) process.kill(-server.pid, 'SIGTERM');
}

const w = Math.max(...rows.map((r) => r.what.length));
console.log(`\n| ${'Payment form'.padEnd(w)} | value | target | |`);
console.log(`|${'-'.repeat(w + 2)}|---|---|---|`);
for (const r of rows)
  console.log(`| ${r.what.padEnd(w)} | ${r.value} | ${r.target} | ${r.target ? (r.ok ? 'ok' : 'MISSED') : ''} |`);
process.exitCode = rows.every((r) => r.ok) ? 0 : 1;
