/**
 * Merchant API create-invoice benchmark (DESIGN §5: ≥ 1,000 signed requests/s, p99 < 100 ms).
 * Creates a fresh PostgreSQL database, seeds only a merchant, a terminal and its method, runs the
 * server in its own process and drives it with autocannon from this one, then drops the database.
 *
 *   npm run bench:merchant-api [-- --duration 20 --connections 32]
 *   BENCH_DATABASE_URL=postgres://… to use another server (default: the local server, over its Unix socket when there is one)
 *   --processes N runs N server processes (WEB_CONCURRENCY; default 1)
 */
import { generateKeyPairSync, randomBytes, sign, createPrivateKey } from 'node:crypto';
import { parseArgs } from 'node:util';
// @ts-expect-error autocannon ships no types
import autocannon from 'autocannon';
import { merchantSignaturePayload } from '@paydesk/contracts';
import { merchants, terminalMethods, terminals } from '../src/db/schema';
import { createBenchDatabase, dropBenchDatabase, startServer } from './lib';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '5' },
    connections: { type: 'string', default: '32' },
    processes: { type: 'string', default: '1' },
  },
});
const dbName = `paydesk_bench_${process.pid}`;

async function main() {
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    const { url, dbh, ref } = await createBenchDatabase(dbName);
    const { publicKey, privateKey } = generateKeyPairSync('ed25519', {
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    const [m] = await dbh.db
      .insert(merchants)
      .values({
        name: 'Bench merchant',
        clientPublicKey: publicKey,
        webhookSecret: `whsec_${randomBytes(32).toString('base64')}`,
      })
      .returning();
    const [t] = await dbh.db
      .insert(terminals)
      .values({
        merchantId: m!.id,
        name: 'Bench UZS Deposit',
        flowType: 'DEPOSIT',
        currencyId: ref.currencyIds.get('UZS')!,
        isTest: false,
      })
      .returning();
    await dbh.db.insert(terminalMethods).values({ terminalId: t!.id, paymentMethodId: ref.methods.get('HUMOUZS')!.id });
    await dbh.close();

    server = await startServer(url, { WORKERS: 'true', WEB_CONCURRENCY: args.processes });
    const target = server.target;

    const key = createPrivateKey(privateKey);
    const apiPath = '/api/merchant/v1/invoices';
    let seq = 0;
    const run = (seconds: number) =>
      autocannon({
        url: target,
        connections: Number(args.connections),
        duration: seconds,
        requests: [
          {
            method: 'POST',
            path: apiPath,
            setupRequest: (req: Record<string, unknown>) => {
              const body = JSON.stringify({
                terminalId: t!.id,
                flowType: 'DEPOSIT',
                amount: 150_000_00,
                currency: 'UZS',
                merchantInvoiceId: `bench-${process.pid}-${++seq}`,
                customer: { externalId: `c-${seq % 1000}`, firstName: 'Bench', lastName: 'Customer' },
                successUrl: 'https://shop.example.com/ok',
                cancelUrl: 'https://shop.example.com/cancel',
                errorUrl: 'https://shop.example.com/error',
              });
              const ts = String(Math.floor(Date.now() / 1000));
              const signature = sign(
                null,
                Buffer.from(merchantSignaturePayload(ts, 'POST', apiPath, body)),
                key,
              ).toString('base64');
              return {
                ...req,
                body,
                headers: {
                  'content-type': 'application/json',
                  'x-merchant-id': m!.id,
                  'x-timestamp': ts,
                  'x-signature': signature,
                },
              };
            },
          },
        ],
      });
    console.log(`warm-up ${args.warmup} s…`);
    await run(Number(args.warmup));
    console.log(`measuring ${args.duration} s with ${args.connections} connections…`);
    const r = await run(Number(args.duration));
    const ok = r['2xx'] as number;
    console.log(
      JSON.stringify(
        {
          requestsPerSecond: Math.round(ok / Number(args.duration)),
          latencyMs: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max },
          ok,
          non2xx: r.non2xx,
          errors: r.errors,
          timeouts: r.timeouts,
        },
        null,
        2,
      ),
    );
    const pass = ok / Number(args.duration) >= 1000 && r.latency.p99 < 100 && r.non2xx === 0 && r.errors === 0;
    console.log(pass ? 'PASS: ≥ 1,000 req/s and p99 < 100 ms' : 'BELOW TARGET: ≥ 1,000 req/s and p99 < 100 ms');
  } finally {
    await server?.stop();
    await dropBenchDatabase(dbName);
  }
}

await main();
