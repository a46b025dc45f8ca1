import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { merchantSignaturePayload, webhookPayload } from '@paydesk/contracts';
import type { TestApp } from './harness';

/** Signed merchant API requests for tests (inject or real HTTP). */
export function merchantSigner(merchantId: string, privateKeyPem: string, now: () => Date = () => new Date()) {
  const key: KeyObject = createPrivateKey(privateKeyPem);
  return (method: string, path: string, body?: unknown, extra: Record<string, string> = {}) => {
    const raw = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
    const ts = String(Math.floor(now().getTime() / 1000));
    const signature = sign(null, Buffer.from(merchantSignaturePayload(ts, method, path, raw)), key).toString('base64');
    const headers: Record<string, string> = {
      'x-merchant-id': merchantId,
      'x-timestamp': ts,
      'x-signature': signature,
      ...(raw ? { 'content-type': 'application/json' } : {}),
      ...extra,
    };
    return { method, path, raw, headers };
  };
}

export type Signer = ReturnType<typeof merchantSigner>;

export async function injectSigned(
  app: FastifyInstance,
  signer: Signer,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  extra?: Record<string, string>,
) {
  const r = signer(method, path, body, extra);
  return app.inject({ method, url: path, headers: r.headers, payload: r.raw || undefined });
}

export async function fetchSigned(
  base: string,
  signer: Signer,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  extra?: Record<string, string>,
) {
  const r = signer(method, path, body, extra);
  const res = await fetch(base + path, { method, headers: r.headers, body: r.raw || undefined });
  return { status: res.status, json: (await res.json()) as any };
}

type ReceivedHook = { headers: Record<string, string>; body: string };

/**
 * What is wrong with a callback as received (null when nothing): the body must match the documented
 * webhook schema, and one of its signatures must be what the independent `standardwebhooks` library
 * computes with one of the merchant's secrets. The signature is compared at the callback's own
 * timestamp, because tests run on a simulated clock past the library's 5-minute tolerance.
 */
function callbackProblem(hook: ReceivedHook, secrets: readonly string[]): string | null {
  let body: unknown;
  try {
    body = JSON.parse(hook.body);
  } catch {
    return 'body is not JSON';
  }
  const parsed = webhookPayload.safeParse(body);
  if (!parsed.success) return `body does not match the webhook schema: ${parsed.error.message}`;
  const id = hook.headers['webhook-id'];
  const ts = Number(hook.headers['webhook-timestamp']);
  if (!id || !Number.isInteger(ts)) return 'webhook-id or webhook-timestamp missing';
  const given = (hook.headers['webhook-signature'] ?? '').split(' ');
  const ok = secrets.some((s) => given.includes(new Webhook(s).sign(id, new Date(ts * 1000), hook.body)));
  return ok ? null : 'no signature verifies with standardwebhooks';
}

/**
 * A merchant's callback endpoint on 127.0.0.1: answers `status()` and records what arrived. Every
 * callback it gets is checked with callbackProblem against `secrets()` (the merchant's current ones);
 * close() fails the test if any was wrong.
 */
export async function startReceiver(status: () => number = () => 200, secrets: () => readonly string[]) {
  const received: ReceivedHook[] = [];
  const refused: ReceivedHook[] = [];
  const problems: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const hook = { headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') };
      const problem = callbackProblem(hook, secrets());
      if (problem) problems.push(`${hook.headers['webhook-id']}: ${problem}`);
      const code = status();
      (code >= 200 && code < 300 ? received : refused).push(hook);
      res.writeHead(code, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    refused,
    async close() {
      await new Promise<void>((r) => server.close(() => r()));
      if (problems.length)
        throw new Error(`Callbacks that are not what the document promises:\n${problems.join('\n')}`);
    },
  };
}

/** Listens on 127.0.0.1, port 0; returns the base URL. */
export async function listen(app: FastifyInstance) {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

export const validCard = '4111111111111111';

let seq = 0;
export const uniqueId = (p = 'inv') => `${p}-${process.pid}-${Date.now()}-${++seq}`;

export function invoiceBody(
  terminal: { id: string; flowType: 'DEPOSIT' | 'WITHDRAWAL'; currency: string },
  over: Record<string, unknown> = {},
) {
  return {
    terminalId: terminal.id,
    flowType: terminal.flowType,
    amount: 150_000_00,
    currency: terminal.currency,
    merchantInvoiceId: uniqueId(),
    customer: { externalId: 'cust-1', firstName: 'Aziz', lastName: 'Karimov' },
    successUrl: 'https://shop.example.com/ok',
    cancelUrl: 'https://shop.example.com/cancel',
    errorUrl: 'https://shop.example.com/error',
    ...over,
  };
}

/**
 * A live UZS deposit whose customer asked for requisites (created by the merchant with `over` in its body, the form's
 * first method chosen): its invoice and form, the account routing gave, and that account's provider code.
 */
export async function depositGivenRequisites(
  t: TestApp,
  sign: Signer,
  amount: number,
  over: Record<string, unknown> = {},
) {
  const terminal = t.demo.terminals.find((x) => x.flowType === 'DEPOSIT' && x.currency === 'UZS' && !x.isTest)!;
  const res = await injectSigned(
    t.app,
    sign,
    'POST',
    '/api/merchant/v1/invoices',
    invoiceBody(terminal, { amount, ...over }),
  );
  expect(res.statusCode, res.body).toBe(201);
  const { invoiceId, formId } = res.json().data as { invoiceId: string; formId: string };
  const init = await t.app.inject({ method: 'POST', url: `/api/payments/form/${formId}/init` });
  const cred = await t.app.inject({
    method: 'POST',
    url: `/api/payments/form/${formId}/credential`,
    payload: { amount, paymentMethodId: init.json().data.methods[0].id },
  });
  expect(cred.statusCode, cred.body).toBe(200);
  const [row] = (
    await t.ctx.db.execute<{ account_id: number; code: string }>(sql`SELECT i.account_id, p.code FROM invoices i
      JOIN provider_accounts a ON a.id = i.account_id JOIN providers p ON p.id = a.provider_id
      WHERE i.id = ${invoiceId}`)
  ).rows;
  return { invoiceId, formId, accountId: Number(row!.account_id), provider: row!.code };
}
