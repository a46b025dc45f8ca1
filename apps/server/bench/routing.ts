/**
 * Payment-form credential step (routing) benchmark (target: p99 independent of ledger history; docs/benchmarks.md,
 * "Credential step (routing) against ledger history").
 * On a fresh PostgreSQL database: one merchant, a UZS deposit terminal and 4 provider accounts; the
 * server runs in its own process (no workers) and autocannon asks for requisites of distinct NEW
 * invoices at 8, 16 and 32 concurrent customers — first with an empty ledger, then with 1,000,000
 * ledger entries on the same accounts. The ratio p99(history) / p99(empty) is what must stay ~1.
 *
 *   npm run bench:routing [-- --duration 10 --entries 1000000]
 *   BENCH_DATABASE_URL=postgres://… to use another server
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
// @ts-expect-error autocannon ships no types
import autocannon from 'autocannon';
import { createBenchDatabase, dropBenchDatabase, sqlOn, startServer } from './lib';
import { createDb } from '../src/db/create-db';
import { rebuildLedgerBalances } from '../src/modules/ledger/reconcile';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    entries: { type: 'string', default: '1000000' },
  },
});
const CONCURRENCY = [8, 16, 32];
const dbName = `paydesk_bench_routing_${process.pid}`;

/** NEW deposit invoices with forms, in bulk: the credential step routes each one once. */
async function newInvoices(url: string, ids: { merchant: string; terminal: string; currency: number }, n: number) {
  const res = await sqlOn(
    url,
    `INSERT INTO invoices (merchant_id, terminal_id, merchant_invoice_id, form_id, flow_type, status, amount, currency_id,
       can_change_amount, expires_at)
     SELECT $1, $2, 'bench-' || g || '-' || $5, encode(gen_random_bytes(18), 'hex'), 'DEPOSIT', 'NEW',
       100000 + (g % 50000) * 100, $3, false, now() + interval '1 day'
     FROM generate_series(1, $4) g
     RETURNING form_id, amount`,
    [ids.merchant, ids.terminal, ids.currency, n, randomBytes(4).toString('hex')],
  );
  return res.rows as { form_id: string; amount: string }[];
}

async function measure(target: string, forms: { form_id: string; amount: string }[], methodId: number, c: number) {
  let next = 0;
  const r = await autocannon({
    url: target,
    connections: c,
    duration: Number(args.duration),
    requests: [
      {
        method: 'POST',
        setupRequest: (req: Record<string, unknown>) => {
          const f = forms[next++ % forms.length]!;
          return {
            ...req,
            path: `/api/payments/form/${f.form_id}/credential`,
            body: JSON.stringify({ amount: Number(f.amount), paymentMethodId: methodId }),
            // every customer from an address of its own, as on the internet (the form API limits per address)
            headers: {
              'content-type': 'application/json',
              'x-forwarded-for': `10.${(next >> 16) & 255}.${(next >> 8) & 255}.${next & 255}`,
            },
          };
        },
      },
    ],
  });
  return {
    connections: c,
    requestsPerSecond: Math.round((r['2xx'] as number) / Number(args.duration)),
    p50: r.latency.p50 as number,
    p99: r.latency.p99 as number,
    non2xx: r.non2xx as number,
    used: next,
  };
}

async function main() {
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    const { url, dbh, ref } = await createBenchDatabase(dbName);
    await dbh.close();
    await sqlOn(url, 'CREATE EXTENSION IF NOT EXISTS pgcrypto');
    const method = ref.methods.get('HUMOUZS')!;
    const currency = ref.currencyIds.get('UZS')!;
    const { id: merchant } = (
      (await sqlOn(url, `INSERT INTO merchants (name, webhook_secret) VALUES ('Bench', 'whsec_x') RETURNING id`))
        .rows as { id: string }[]
    )[0]!;
    const { id: terminal } = (
      (
        await sqlOn(
          url,
          `INSERT INTO terminals (merchant_id, name, flow_type, currency_id, is_test) VALUES ($1, 'Bench', 'DEPOSIT', $2, false) RETURNING id`,
          [merchant, currency],
        )
      ).rows as { id: string }[]
    )[0]!;
    await sqlOn(url, `INSERT INTO terminal_methods (terminal_id, payment_method_id) VALUES ($1, $2)`, [
      terminal,
      method.id,
    ]);
    const provider = (await sqlOn(url, `SELECT id FROM providers WHERE NOT is_sandbox ORDER BY id LIMIT 1`)).rows[0].id;
    const accounts = (
      await sqlOn(
        url,
        `INSERT INTO provider_accounts (provider_id, payment_method_id, bank_name) SELECT $1, $2, 'Bench bank ' || g
         FROM generate_series(1, 4) g RETURNING id`,
        [provider, method.id],
      )
    ).rows.map((r) => r.id as number);
    await sqlOn(
      url,
      `INSERT INTO account_limits (account_id, "limit", priority, check_unique_amount)
       SELECT unnest($1::int[]), 9000000000000000, 10, false`,
      [accounts],
    );
    await sqlOn(
      url,
      `INSERT INTO account_credentials (account_id, credential_type, value) SELECT unnest($1::int[]), 'CARD', '9860123412341234'`,
      [accounts],
    );
    const ids = { merchant, terminal, currency };

    server = await startServer(url, { WORKERS: 'false', TRUST_PROXY: 'true' });
    const target = server.target;

    const phase = async (label: string) => {
      const rows = [];
      // one request by hand first: a refusal here would make every figure meaningless
      const [probe] = await newInvoices(url, ids, 1);
      const res = await fetch(`${target}/api/payments/form/${probe!.form_id}/credential`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ amount: Number(probe!.amount), paymentMethodId: method.id }),
      });
      if (!res.ok) throw new Error(`credential step refused: ${res.status} ${await res.text()}`);
      // warm-up, then each concurrency on invoices of its own
      await measure(target, await newInvoices(url, ids, 3000), method.id, 8);
      for (const c of CONCURRENCY) {
        const forms = await newInvoices(url, ids, 20_000);
        rows.push(await measure(target, forms, method.id, c));
      }
      console.log(label, JSON.stringify(rows));
      return rows;
    };

    const empty = await phase('empty ledger:');
    const n = Number(args.entries);
    console.log(`loading ${n.toLocaleString('en')} ledger entries on the same accounts…`);
    // pairs of legs: money in on a provider account, owed to the merchant (history of DONE deposits)
    await sqlOn(
      url,
      `INSERT INTO ledger_entries (tx_id, account, merchant_id, terminal_id, provider_account_id, currency_id, amount, kind, book, created_at)
       SELECT gen_random_uuid(), leg.account, $1, $2, CASE WHEN leg.account = 'provider_account' THEN ($4::int[])[1 + g % 4] END, $3,
         leg.sign * 100, 'bench_history', 'live', now() - (g || ' seconds')::interval
       FROM generate_series(1, $5) g
       CROSS JOIN (VALUES ('provider_account', 1), ('merchant', -1)) AS leg(account, sign)`,
      [merchant, terminal, currency, accounts, Math.floor(n / 2)],
    );
    const dbh2 = await createDb({ databaseUrl: url });
    await rebuildLedgerBalances(dbh2.db);
    await dbh2.close();
    await sqlOn(url, 'VACUUM ANALYZE');
    const history = await phase(`with ${n.toLocaleString('en')} entries:`);
    console.log('\nconcurrency | empty p50/p99 ms | history p50/p99 ms | p99 ratio | req/s empty → history');
    for (let i = 0; i < CONCURRENCY.length; i++) {
      const a = empty[i]!;
      const b = history[i]!;
      console.log(
        `${String(a.connections).padStart(11)} | ${a.p50}/${a.p99} | ${b.p50}/${b.p99} | ${(b.p99 / a.p99).toFixed(2)} | ${a.requestsPerSecond} → ${b.requestsPerSecond}` +
          (a.non2xx || b.non2xx ? `  (non-2xx: ${a.non2xx}, ${b.non2xx})` : ''),
      );
    }
  } finally {
    await server?.stop();
    await dropBenchDatabase(dbName);
  }
}

await main();
