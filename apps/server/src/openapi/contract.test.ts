import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { listen } from '../../test/merchant-client';
import { TMP_DIR } from '../../test/paths';
import { CURL_SNIPPET, SIGN_SNIPPET } from './quickstart';

/**
 * The contract as an integrator meets it: a client generated with openapi-typescript from the
 * document the server serves, a small merchant integration compiled against it under `tsc --strict`, then
 * run against the real server over HTTP. And the developer page's quickstart, run as written.
 */

const run = promisify(execFile);
const bin = (name: string) => path.resolve(import.meta.dirname, '../../../../node_modules/.bin', name);

let t: TestApp;
let base: string;
let dir: string;

beforeAll(async () => {
  t = await createTestApp();
  base = await listen(t.app);
  // inside the repository, so that the integration resolves openapi-fetch and @types/node like any project would
  fs.mkdirSync(TMP_DIR, { recursive: true });
  dir = fs.mkdtempSync(path.join(TMP_DIR, 'contract-'));
  fs.writeFileSync(path.join(dir, 'demo-merchant.json'), JSON.stringify(t.demo));
});
afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
  await t?.close();
});

const terminal = (flowType: string) => t.demo.terminals.find((x) => x.flowType === flowType && x.isTest)!;

describe('typed client from the served document', () => {
  it('generates, compiles under tsc --strict, and runs: create deposit and withdrawal, read, cancel, 409s by code', async () => {
    await run(bin('openapi-typescript'), [`${base}/api/docs/merchant.json`, '-o', path.join(dir, 'schema.d.ts')]);
    const schema = fs.readFileSync(path.join(dir, 'schema.d.ts'), 'utf8');
    // errors are typed: the shared error shape with each status's codes
    expect(schema).toMatch(/IDEMPOTENCY_CONFLICT/);
    fs.copyFileSync(path.join(import.meta.dirname, 'contract', 'integration.ts'), path.join(dir, 'integration.ts'));

    const tsc = await run(
      bin('tsc'),
      [
        '--strict',
        '--noEmit',
        '--noUncheckedIndexedAccess',
        '--target',
        'es2022',
        '--module',
        'esnext',
        '--moduleResolution',
        'bundler',
        '--types',
        'node',
        '--skipLibCheck',
        path.join(dir, 'integration.ts'),
      ],
      { cwd: dir },
    ).catch((e: { stdout: string }) => ({ stdout: e.stdout, failed: true }));
    expect(tsc.stdout).toBe('');

    const deposit = terminal('DEPOSIT');
    const out = await run(bin('tsx'), [path.join(dir, 'integration.ts')], {
      cwd: dir,
      env: {
        ...process.env,
        PAYDESK_URL: base,
        MERCHANT_ID: t.demo.merchantId,
        PRIVATE_KEY_PEM: t.demo.privateKeyPem,
        DEPOSIT_TERMINAL: deposit.id,
        WITHDRAWAL_TERMINAL: t.demo.terminals.find(
          (x) => x.flowType === 'WITHDRAWAL' && x.currency === deposit.currency,
        )!.id,
        CURRENCY: deposit.currency,
      },
    });
    expect(JSON.parse(out.stdout)).toEqual({
      deposit: { status: 201, invoiceStatus: 'NEW', formUrl: expect.stringMatching(/\/payment\/[\w-]+$/) },
      withdrawal: { status: 201, invoiceStatus: 'NEW' },
      read: { status: 200, flowType: 'DEPOSIT', amount: 1_500_000 },
      conflicts: ['IDEMPOTENCY_CONFLICT', 'DUPLICATE'],
      replay: { status: 201, sameInvoice: true, replayed: 'true' },
      cancel: { status: 200, invoiceStatus: 'CANCELED' },
      cancelAgain: { status: 409, code: 'INVALID_STATE' },
    });
  });
});

describe('the quickstart, as written on the developer page', () => {
  it('signs with the Node snippet and creates a test deposit with curl', async () => {
    fs.writeFileSync(path.join(dir, 'sign.mjs'), SIGN_SNIPPET);
    const out = await run('bash', ['-euo', 'pipefail', '-c', CURL_SNIPPET], {
      cwd: dir,
      env: { ...process.env, PAYDESK_URL: base, DEMO_FILE: 'demo-merchant.json' },
    });
    const body = JSON.parse(out.stdout) as { data: { invoiceId: string; status: string; formUrl: string } };
    expect(body.data.status).toBe('NEW');
    const row = await t.ctx.db.query.invoices.findFirst({ where: (i, { eq }) => eq(i.id, body.data.invoiceId) });
    expect(row).toMatchObject({ flowType: 'DEPOSIT', amount: 1_500_000, isTest: true });
  });
});
