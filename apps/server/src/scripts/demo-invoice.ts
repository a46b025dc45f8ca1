/**
 * Creates a signed demo invoice through the merchant API and prints the payment form URL.
 *
 *   npm run demo:invoice -- --flow deposit --currency UZS --amount 1500000 [--test] [--method CODE] [--url http://localhost:3000]
 *   npm run demo:invoice -- --help
 *
 * Signs with the demo merchant's key from data/demo-merchant.json (DATA_DIR, else ./data).
 */
import { createPrivateKey, randomBytes, sign } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { merchantSignaturePayload } from '@paydesk/contracts';
import type { DemoMerchantFile } from '../db/seed';
import { loadConfig } from '../config';

const USAGE = `Usage: npm run demo:invoice -- [options]

Creates a payment form through the signed merchant API and prints its URL.

Options:
  --flow deposit|withdrawal  invoice flow (default: deposit)
  --currency CODE            currency of the terminal, e.g. UZS, RUB (default: UZS)
  --amount MINOR             integer amount in minor units; 1500000 = 15 000.00 (default: 1500000)
  --test                     use a test terminal (the built-in sandbox confirms it)
  --method CODE              payment method code, e.g. HUMOUZS
  --callback URL             callback URL for this invoice (else the terminal's)
  --url BASE                 server to call (default: PUBLIC_URL, else http://localhost:PORT)
  -h, --help                 show this help`;

let values;
try {
  values = parseArgs({
    options: {
      flow: { type: 'string', default: 'deposit' },
      currency: { type: 'string', default: 'UZS' },
      amount: { type: 'string', default: '1500000' },
      test: { type: 'boolean', default: false },
      method: { type: 'string' },
      url: { type: 'string', default: process.env.PUBLIC_URL ?? `http://localhost:${process.env.PORT ?? 3000}` },
      callback: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  }).values;
} catch (err) {
  // an unknown option, a missing value, a stray argument: a usage error (exit 2, as command-line tools do), no trace
  console.error(`demo-invoice: ${(err as Error).message.split('\n')[0]}\n\n${USAGE}`);
  process.exit(2);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const dataDir = loadConfig().dataDir;
const file = path.join(dataDir, 'demo-merchant.json');
if (!fs.existsSync(file)) fail(`${file} not found: start the server once (npm start) so that it seeds the demo data.`);
const demo = JSON.parse(fs.readFileSync(file, 'utf8')) as DemoMerchantFile;

const flowType = values.flow.toUpperCase();
if (flowType !== 'DEPOSIT' && flowType !== 'WITHDRAWAL') fail('--flow must be deposit or withdrawal');
const currency = values.currency.toUpperCase();
if (!/^\d+$/.test(values.amount)) fail('--amount is an integer in minor units (1500000 = 15 000.00)');
const terminal = demo.terminals.find(
  (t) => t.flowType === flowType && t.currency === currency && t.isTest === values.test,
);
if (!terminal) {
  fail(
    `No ${values.test ? 'test' : 'production'} ${flowType} terminal in ${currency}. Available: ` +
      demo.terminals.map((t) => `${t.flowType} ${t.currency}${t.isTest ? ' (test)' : ''}`).join(', '),
  );
}

const apiPath = '/api/merchant/v1/invoices';
const body = JSON.stringify({
  terminalId: terminal.id,
  flowType,
  amount: Number(values.amount),
  currency,
  merchantInvoiceId: `demo-${Date.now()}-${randomBytes(3).toString('hex')}`,
  customer: { externalId: 'demo-customer', firstName: 'Demo', lastName: 'Customer' },
  successUrl: 'https://example.com/success',
  cancelUrl: 'https://example.com/cancel',
  errorUrl: 'https://example.com/error',
  ...(values.callback ? { callbackUrl: values.callback } : {}),
  ...(values.method ? { paymentMethod: values.method.toUpperCase() } : {}),
  canChangeAmount: true,
});
const ts = String(Math.floor(Date.now() / 1000));
const signature = sign(
  null,
  Buffer.from(merchantSignaturePayload(ts, 'POST', apiPath, body)),
  createPrivateKey(demo.privateKeyPem),
).toString('base64');

const base = values.url.replace(/\/+$/, '');
let res: Response;
try {
  res = await fetch(base + apiPath, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-merchant-id': demo.merchantId,
      'x-timestamp': ts,
      'x-signature': signature,
    },
    body,
  });
} catch (err) {
  fail(`Could not reach ${base}: ${(err as Error).message}. Is the server running?`);
}
const json = (await res.json()) as {
  data?: { formUrl: string; invoiceId: string; expiresAt: string };
  error?: { code: string; message: string };
};
if (!res.ok || !json.data)
  fail(`${res.status} ${json.error?.code ?? ''}: ${json.error?.message ?? JSON.stringify(json)}`);
console.log(
  `Invoice ${json.data.invoiceId} (${flowType} ${values.amount} ${currency} on "${terminal.name}"), expires ${json.data.expiresAt}`,
);
console.log(json.data.formUrl);
