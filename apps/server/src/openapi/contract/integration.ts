/**
 * A small merchant integration written the way an integrator would: its types come only from
 * `schema.d.ts`, which the contract test generates with openapi-typescript from the document the server
 * serves; it compiles under `tsc --strict` and runs against the real server. It prints what it saw as JSON.
 */
import { createPrivateKey, sign } from 'node:crypto';
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schema';

const env = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
};

const merchantId = env('MERCHANT_ID');
const key = createPrivateKey(env('PRIVATE_KEY_PEM'));

/** Signs every request: Ed25519 over `${timestamp}.${METHOD}.${path with query}.${raw body}`. */
const signing: Middleware = {
  async onRequest({ request }) {
    const url = new URL(request.url);
    const body = request.body ? await request.clone().text() : '';
    const timestamp = String(Math.floor(Date.now() / 1000));
    const message = `${timestamp}.${request.method}.${url.pathname}${url.search}.${body}`;
    request.headers.set('X-Merchant-Id', merchantId);
    request.headers.set('X-Timestamp', timestamp);
    request.headers.set('X-Signature', sign(null, Buffer.from(message), key).toString('base64'));
    return request;
  },
};

const client = createClient<paths>({ baseUrl: env('PAYDESK_URL') });
client.use(signing);

type CreateBody = paths['/api/merchant/v1/invoices']['post']['requestBody']['content']['application/json'];

const order = `contract-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
const invoice = (flowType: 'DEPOSIT' | 'WITHDRAWAL', terminalId: string, suffix: string): CreateBody => ({
  terminalId,
  flowType,
  amount: 1_500_000,
  currency: env('CURRENCY'),
  merchantInvoiceId: `${order}-${suffix}`,
  customer: { externalId: 'customer-1', firstName: 'Aziz', lastName: 'Karimov' },
  successUrl: 'https://shop.example.com/ok',
  cancelUrl: 'https://shop.example.com/cancel',
  errorUrl: 'https://shop.example.com/error',
});

async function main() {
  const seen: Record<string, unknown> = {};

  // create a deposit, safe to repeat with its Idempotency-Key
  const depositBody = invoice('DEPOSIT', env('DEPOSIT_TERMINAL'), 'd');
  const deposit = await client.POST('/api/merchant/v1/invoices', {
    body: depositBody,
    params: { header: { 'idempotency-key': `${order}-d` } },
  });
  if (!deposit.data) throw new Error(`deposit: ${deposit.response.status} ${deposit.error?.error.code}`);
  const depositId: string = deposit.data.data.invoiceId;
  seen.deposit = {
    status: deposit.response.status,
    invoiceStatus: deposit.data.data.status,
    formUrl: deposit.data.data.formUrl,
  };

  // a withdrawal
  const withdrawal = await client.POST('/api/merchant/v1/invoices', {
    body: invoice('WITHDRAWAL', env('WITHDRAWAL_TERMINAL'), 'w'),
  });
  if (!withdrawal.data) throw new Error(`withdrawal: ${withdrawal.response.status} ${withdrawal.error?.error.code}`);
  seen.withdrawal = { status: withdrawal.response.status, invoiceStatus: withdrawal.data.data.status };

  // read it back
  const read = await client.GET('/api/merchant/v1/invoices/{invoiceId}', {
    params: { path: { invoiceId: depositId } },
  });
  if (!read.data) throw new Error(`read: ${read.response.status} ${read.error?.error.code}`);
  const amount: number = read.data.data.amount;
  seen.read = { status: read.response.status, flowType: read.data.data.flowType, amount };

  // 409s, told apart by error.code: the same Idempotency-Key with another body, the same merchantInvoiceId again
  const conflict = await client.POST('/api/merchant/v1/invoices', {
    body: { ...depositBody, amount: depositBody.amount + 100 },
    params: { header: { 'idempotency-key': `${order}-d` } },
  });
  const duplicate = await client.POST('/api/merchant/v1/invoices', { body: depositBody });
  const codes: string[] = [];
  for (const r of [conflict, duplicate]) {
    if (r.error && r.response.status === 409) {
      switch (r.error.error.code) {
        case 'IDEMPOTENCY_CONFLICT':
        case 'DUPLICATE':
          codes.push(r.error.error.code);
          break;
        default:
          throw new Error(`unexpected 409 ${r.error.error.code}: ${r.error.error.message}`);
      }
    } else {
      throw new Error(`expected a 409, got ${r.response.status}`);
    }
  }
  seen.conflicts = codes;

  // the same request again replays the first answer
  const replay = await client.POST('/api/merchant/v1/invoices', {
    body: depositBody,
    params: { header: { 'idempotency-key': `${order}-d` } },
  });
  seen.replay = {
    status: replay.response.status,
    sameInvoice: replay.data?.data.invoiceId === depositId,
    replayed: replay.response.headers.get('idempotent-replayed'),
  };

  // cancel the deposit
  const cancel = await client.POST('/api/merchant/v1/invoices/{invoiceId}/cancel', {
    params: { path: { invoiceId: depositId } },
  });
  if (!cancel.data) throw new Error(`cancel: ${cancel.response.status} ${cancel.error?.error.code}`);
  seen.cancel = { status: cancel.response.status, invoiceStatus: cancel.data.data.status };

  // cancelling again is refused with a code the document lists
  const again = await client.POST('/api/merchant/v1/invoices/{invoiceId}/cancel', {
    params: { path: { invoiceId: depositId } },
  });
  seen.cancelAgain = { status: again.response.status, code: again.error?.error.code };

  console.log(JSON.stringify(seen));
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
