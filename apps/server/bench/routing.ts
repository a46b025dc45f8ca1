/**
 * Payment-form credential step (routing) benchmark. Targets: at 32 concurrent customers on one method with 4 accounts,
 * ≥ 0.8× of pgbench running the step's own statements at the same concurrency; p99 independent of ledger history
 * (docs/benchmarks.md, "Credential step (routing)").
 * On a fresh PostgreSQL database: one merchant, a UZS deposit terminal and 4 provider accounts. The step's statements
 * are captured once from the app itself (in this process, bench/capture.ts) and written as a pgbench script: the
 * invoice lock, the candidates, the SKIP LOCKED account lock (waiting on the first account when every one is busy, as
 * the server does), the engine's guard reads and the writes. The server runs in its own process, compiled as npm start
 * runs it (no workers), and autocannon asks for requisites of distinct NEW invoices at 8, 16 and 32 concurrent
 * customers; pgbench then runs the script on invoices of its own at the same concurrency. First with an empty ledger,
 * then with 1,000,000 ledger entries on the same accounts: p99(history) / p99(empty) is what must stay ~1. Also
 * printed: the server's and PostgreSQL's CPU per step (from /proc), beside PostgreSQL's per pgbench transaction.
 *
 *   npm run bench:routing [-- --duration 10 --entries 1000000]
 *   BENCH_DATABASE_URL=postgres://… to use another server
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
// @ts-expect-error autocannon ships no types
import autocannon from 'autocannon';
import { benchKeyFile, cpuTimes, createBenchDatabase, dropBenchDatabase, sqlOn, startServer } from './lib';
import { captureStatements } from './capture';
import { pgbenchCommand, runPgbench, writePgbenchScript, type PgbenchScript } from './pgbench';
import { createDb } from '../src/db/create-db';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createContext } from '../src/lib/context';
import { encryptPlainRequisites } from '../src/lib/requisite-keys';
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

async function measure(
  server: { target: string; pid: number },
  forms: { form_id: string; amount: string }[],
  methodId: number,
  c: number,
) {
  let next = 0;
  const before = cpuTimes(server.pid);
  const r = await autocannon({
    url: server.target,
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
  const after = cpuTimes(server.pid);
  const served = Math.max(1, r['2xx'] as number);
  return {
    connections: c,
    requestsPerSecond: Math.round((r['2xx'] as number) / Number(args.duration)),
    serverCpuMs: (after.serverMs - before.serverMs) / served,
    postgresCpuMs: (after.postgresMs - before.postgresMs) / served,
    p50: r.latency.p50 as number,
    p99: r.latency.p99 as number,
    non2xx: r.non2xx as number,
    used: next,
  };
}

type Ids = { merchant: string; terminal: string; currency: number };

/** NEW deposit invoices for pgbench: client c's k-th transaction of run r takes form md5('pgb-r-c-k'). */
async function pgbenchInvoices(url: string, ids: Ids, run: number, clients: number, perClient: number) {
  await sqlOn(
    url,
    `INSERT INTO invoices (merchant_id, terminal_id, merchant_invoice_id, form_id, flow_type, status, amount, currency_id,
       can_change_amount, expires_at)
     SELECT $1, $2, 'pgb-' || $4 || '-' || c || '-' || k, md5('pgb-' || $4 || '-' || c || '-' || k), 'DEPOSIT', 'NEW',
       100000 + ((c * $6 + k) % 50000) * 100, $3, false, now() + interval '1 day'
     FROM generate_series(0, $5 - 1) c CROSS JOIN generate_series(1, $6) k`,
    [ids.merchant, ids.terminal, ids.currency, run, clients, perClient],
  );
}

/**
 * The credential step's statements as a pgbench script, captured from one request to the app in this process (after
 * one to warm it): the invoice's form id becomes the client's next pgbench invoice, the invoice's id and amount the
 * values its lock returned (\gset), the account the values the SKIP LOCKED lock returned (\aset; none free: the first
 * candidate, whose lock the engine's guard then waits for, as the server's second pass does).
 */
async function credentialStepScript(url: string, ids: Ids, methodId: number): Promise<PgbenchScript> {
  const sample = (
    await sqlOn(
      url,
      `INSERT INTO invoices (merchant_id, terminal_id, merchant_invoice_id, form_id, flow_type, status, amount, currency_id,
         can_change_amount, expires_at)
       SELECT $1, $2, 'capture-' || g, md5('capture-' || g || $4), 'DEPOSIT', 'NEW', 7777777 + g, $3, false,
         now() + interval '1 day'
       FROM generate_series(0, 1) g ORDER BY g RETURNING id, form_id, amount`,
      [ids.merchant, ids.terminal, ids.currency, randomBytes(4).toString('hex')],
    )
  ).rows as { id: string; form_id: string; amount: string }[];
  const dbh = await createDb({ databaseUrl: url, poolMax: 2 });
  const config = loadConfig(
    {
      NODE_ENV: 'production',
      DATABASE_URL: url,
      PUBLIC_URL: 'http://127.0.0.1',
      JWT_SECRET: randomBytes(32).toString('hex'),
      SEED_DEMO: 'false',
      LOG_LEVEL: 'silent',
      DATA_ENCRYPTION_KEY_FILE: benchKeyFile(),
    },
    { workers: false },
  );
  const ctx = await createContext(dbh, config);
  // the accounts' card numbers were inserted plain: sealed as the server does at start
  await encryptPlainRequisites(ctx);
  const app = await buildApp(ctx, {});
  const ask = (i: number) =>
    app.inject({
      method: 'POST',
      url: `/api/payments/form/${sample[i]!.form_id}/credential`,
      payload: { amount: Number(sample[i]!.amount), paymentMethodId: methodId },
    });
  const warm = await ask(0);
  if (warm.statusCode !== 200) throw new Error(`credential step refused: ${warm.statusCode} ${warm.body}`);
  const capture = captureStatements();
  const res = await ask(1).finally(() => capture.stop());
  await app.close();
  await dbh.close();
  if (res.statusCode !== 200) throw new Error(`credential step refused: ${res.statusCode} ${res.body}`);

  const { id: invoiceId, form_id: formId, amount } = sample[1]!;
  const lockAt = capture.log.findIndex((q) => q.values.includes(formId));
  const routeAt = capture.log.findIndex((q) => q.text.includes('SKIP LOCKED'));
  const accountId = capture.log[routeAt]?.rows[0]?.account_id;
  const firstCandidate = String(capture.log[routeAt]?.values[0]).replace(/[{}]/g, '').split(',')[0];
  if (lockAt < 0 || routeAt < lockAt || accountId === undefined) {
    throw new Error(`the captured step is not the expected one:\n${capture.log.map((q) => q.text).join('\n')}`);
  }
  const defines = ['-D', 'k=0'];
  const lines = ['\\set k :k + 1'];
  capture.log.forEach((q, i) => {
    const command = pgbenchCommand(q.text, q.values, `s${i}_`, defines, (v) => {
      if (v === formId) return `md5('pgb-' || :run::text || '-' || :client_id::text || '-' || :k::text)`;
      if (i > lockAt && v === invoiceId) return ':inv_id';
      if (i > lockAt && String(v) === amount) return ':inv_amount';
      if (i > routeAt && String(v) === String(accountId)) return ':acc_account_id';
      // an account id inside another value (an array literal) would pin every pgbench client to this one account
      if (
        i > routeAt &&
        typeof v === 'string' &&
        /^\{[\d,]*\}$/.test(v) &&
        v.split(/[{},]/).includes(String(accountId))
      ) {
        throw new Error(`statement ${i} names account ${accountId} inside ${v}: pass it as a parameter of its own`);
      }
      return undefined;
    });
    if (i === lockAt) lines.push(`${command} \\gset inv_`);
    else if (i === routeAt) {
      lines.push('\\set acc_account_id 0', `${command} \\aset acc_`);
      lines.push('\\if :acc_account_id = 0', `\\set acc_account_id ${firstCandidate}`, '\\endif');
    } else lines.push(`${command};`);
  });
  return writePgbenchScript('credential-step.sql', lines, defines);
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
    // ids no other figure of the step can equal: the pgbench script finds the account among the parameters by value
    const accounts = (
      await sqlOn(
        url,
        `INSERT INTO provider_accounts (id, provider_id, payment_method_id, bank_name)
         SELECT 900000 + g, $1, $2, 'Bench bank ' || g FROM generate_series(1, 4) g RETURNING id`,
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
    const script = await credentialStepScript(url, ids, method.id);

    // compiled, as npm start runs it
    server = await startServer(url, { WORKERS: 'false', TRUST_PROXY: 'true' }, { compiled: true });
    const srv = server;

    let run = 0;
    const phase = async (label: string) => {
      const rows = [];
      // warm-up, then each concurrency on invoices of its own
      await measure(srv, await newInvoices(url, ids, 3000), method.id, 8);
      for (const c of CONCURRENCY) {
        const forms = await newInvoices(url, ids, 20_000);
        const app = await measure(srv, forms, method.id, c);
        run += 1;
        // enough invoices for every client at up to 4,000 transactions a second: a client that runs out aborts the run
        await pgbenchInvoices(url, ids, run, c, Math.ceil((4000 * Number(args.duration)) / c));
        const pg = runPgbench(url, script, c, Number(args.duration), ['-D', `run=${run}`]);
        // pgbench really gave requisites: as many of its invoices wait for money as it counted transactions
        const given = Number(
          (
            await sqlOn(
              url,
              `SELECT count(*) AS n FROM invoices WHERE merchant_invoice_id LIKE 'pgb-' || $1 || '-%' AND status = 'IN_PROGRESS'`,
              [run],
            )
          ).rows[0].n,
        );
        if (given !== pg.done || pg.failed) {
          throw new Error(`pgbench gave ${given} requisites for ${pg.done} transactions (${pg.failed} failed)`);
        }
        rows.push({
          ...app,
          pgbenchTps: Math.round(pg.tps),
          pgbenchLatencyMs: pg.latencyMs,
          pgbenchPostgresCpuMs: pg.postgresCpuMs,
        });
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
    console.log(
      '\nconcurrency | empty: p50/p99 ms, req/s, pgbench tps, ratio | history: p50/p99 ms, req/s, pgbench tps, ratio | p99 history ÷ empty',
    );
    for (let i = 0; i < CONCURRENCY.length; i++) {
      const a = empty[i]!;
      const b = history[i]!;
      const side = (x: typeof a) =>
        `${x.p50}/${x.p99}, ${x.requestsPerSecond}, ${x.pgbenchTps}, ${(x.requestsPerSecond / x.pgbenchTps).toFixed(2)}`;
      console.log(
        `${String(a.connections).padStart(11)} | ${side(a)} | ${side(b)} | ${(b.p99 / a.p99).toFixed(2)}` +
          (a.non2xx || b.non2xx ? `  (non-2xx: ${a.non2xx}, ${b.non2xx})` : ''),
      );
    }
    console.log('\nCPU ms a step, with history | server | PostgreSQL (server) | PostgreSQL (pgbench)');
    for (const x of history) {
      console.log(
        `${String(x.connections).padStart(11)} | ${x.serverCpuMs.toFixed(2)} | ${x.postgresCpuMs.toFixed(2)} | ` +
          `${x.pgbenchPostgresCpuMs.toFixed(2)}`,
      );
    }
  } finally {
    await server?.stop();
    await dropBenchDatabase(dbName);
  }
}

await main();
