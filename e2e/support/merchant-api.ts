import { createPrivateKey, randomUUID, sign } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { currentWorker, dataDirOf } from './servers';

/** The demo merchant written by the seed into DATA_DIR (each worker's server has its own: support/servers.ts). */
export type DemoMerchant = {
  merchantId: string;
  privateKeyPem: string;
  webhookSecret: string;
  terminals: { id: string; name: string; flowType: 'DEPOSIT' | 'WITHDRAWAL'; currency: string; isTest: boolean }[];
};

/** The demo merchant of the running test's server. */
export function demoMerchant(dataDir = dataDirOf(currentWorker())): DemoMerchant {
  return JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-merchant.json'), 'utf8')) as DemoMerchant;
}

export type InvoiceOptions = {
  flowType: 'DEPOSIT' | 'WITHDRAWAL';
  currency?: string;
  /** a test terminal (sandbox provider) unless false */
  test?: boolean;
  amount: number;
  paymentMethod?: string;
  canChangeAmount?: boolean;
  expiresInSeconds?: number;
  successUrl?: string;
  cancelUrl?: string;
  errorUrl?: string;
};

export type CreatedInvoice = { invoiceId: string; formId: string; formUrl: string; status: string; expiresAt: string };

/** Creates an invoice through the signed merchant API (Ed25519 over `${ts}.${METHOD}.${path}.${body}`). */
export async function createInvoice(
  baseURL: string,
  opts: InvoiceOptions,
  merchant = demoMerchant(),
): Promise<CreatedInvoice> {
  const currency = opts.currency ?? 'UZS';
  const test = opts.test ?? true;
  const terminal = merchant.terminals.find(
    (t) => t.flowType === opts.flowType && t.currency === currency && t.isTest === test,
  );
  if (!terminal) throw new Error(`No ${test ? 'test ' : ''}${opts.flowType} terminal in ${currency}`);
  const origin = new URL(baseURL).origin;
  const body = JSON.stringify({
    terminalId: terminal.id,
    flowType: opts.flowType,
    amount: opts.amount,
    currency,
    merchantInvoiceId: `e2e-${randomUUID()}`,
    customer: { externalId: 'e2e-customer', firstName: 'Aziz', lastName: 'Karimov' },
    successUrl: opts.successUrl ?? `${origin}/api/health?ok`,
    cancelUrl: opts.cancelUrl ?? `${origin}/api/health?cancel`,
    errorUrl: opts.errorUrl ?? `${origin}/api/health?error`,
    ...(opts.paymentMethod ? { paymentMethod: opts.paymentMethod } : {}),
    ...(opts.canChangeAmount !== undefined ? { canChangeAmount: opts.canChangeAmount } : {}),
    ...(opts.expiresInSeconds !== undefined ? { expiresInSeconds: opts.expiresInSeconds } : {}),
  });
  const urlPath = '/api/merchant/v1/invoices';
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = sign(
    null,
    Buffer.from(`${timestamp}.POST.${urlPath}.${body}`),
    createPrivateKey(merchant.privateKeyPem),
  ).toString('base64');
  const res = await fetch(`${origin}${urlPath}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-merchant-id': merchant.merchantId,
      'x-timestamp': timestamp,
      'x-signature': signature,
    },
    body,
  });
  const json = (await res.json()) as { data?: CreatedInvoice; error?: { message: string } };
  if (!res.ok || !json.data)
    throw new Error(`Create invoice failed (${res.status}): ${json.error?.message ?? JSON.stringify(json)}`);
  return json.data;
}

/** Cancels an invoice through the signed merchant API, as the merchant would (it becomes CANCELED, a final status). */
export async function cancelInvoice(baseURL: string, invoiceId: string, merchant = demoMerchant()): Promise<void> {
  const origin = new URL(baseURL).origin;
  const urlPath = `/api/merchant/v1/invoices/${invoiceId}/cancel`;
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = sign(
    null,
    Buffer.from(`${timestamp}.POST.${urlPath}.`),
    createPrivateKey(merchant.privateKeyPem),
  ).toString('base64');
  const res = await fetch(`${origin}${urlPath}`, {
    method: 'POST',
    headers: { 'x-merchant-id': merchant.merchantId, 'x-timestamp': timestamp, 'x-signature': signature },
  });
  if (!res.ok) throw new Error(`Cancel invoice failed (${res.status}): ${await res.text()}`);
}

/** The form's path on the app under test, with an optional language. */
export function formPath(invoice: CreatedInvoice, lang?: string): string {
  return `/payment/${invoice.formId}${lang ? `?lang=${lang}` : ''}`;
}
