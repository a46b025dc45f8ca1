import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { feeFor } from '@paydesk/contracts';
import { createTestApp, type TestApp } from '../../../test/harness';
import { injectSigned, invoiceBody, merchantSigner, type Signer } from '../../../test/merchant-client';
import { createGuardSql, merchantKeySql, verifyMerchantRequest } from './signature';

/**
 * The `remembered-creates` speed-up (signature.ts; docs/performance.md): a create is checked against the merchant's
 * key and terminal as last read, and its insert is guarded by createGuardSql. Each change a create depends on is
 * seen by the guard, and the same sequence of changes gives the same answers with the speed-up on and off.
 */
const PATH = '/api/merchant/v1/invoices';

let t: TestApp;
let sign: Signer;
beforeAll(async () => {
  t = await createTestApp();
  sign = merchantSigner(t.demo.merchantId, t.demo.privateKeyPem, t.clock.now);
});
afterAll(async () => t?.close());

for (const mode of ['on', 'off'] as const) {
  describe(`remembered creates ${mode}`, () => {
    // the switch is read at each create: one app serves both (as a restart with SPEEDUPS_OFF would)
    beforeAll(() => {
      t.ctx.config.speedupsOff = new Set(mode === 'off' ? ['remembered-creates'] : []);
    });
    const term = () => t.demo.terminals.find((x) => x.flowType === 'DEPOSIT' && x.currency === 'UZS' && !x.isTest)!;
    const invoices = async () =>
      Number((await t.ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM invoices`)).rows[0]!.n);
    const create = (body = invoiceBody(term()), signer = sign) => injectSigned(t.app, signer, 'POST', PATH, body);
    /** the create is refused with 400 and writes nothing */
    const refused = async (message: RegExp) => {
      const before = await invoices();
      const res = await create();
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.message).toMatch(message);
      expect(await invoices()).toBe(before);
    };
    const created = async (body = invoiceBody(term()), signer = sign) => {
      const res = await create(body, signer);
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data.invoiceId as string;
    };

    it(`a create is ${mode === 'on' ? '' : 'never '}checked against the key and terminal as last read`, async () => {
      const req = () => {
        const body = JSON.stringify(invoiceBody(term()));
        const r = sign('POST', PATH, JSON.parse(body));
        return { headers: r.headers, method: 'POST', url: PATH, rawBody: r.raw };
      };
      const hint = { terminalId: term().id, create: true };
      await verifyMerchantRequest(t.ctx, req(), hint);
      const second = await verifyMerchantRequest(t.ctx, req(), hint);
      expect(second.remembered === true).toBe(mode === 'on');
      expect(second.terminal).toMatchObject({ id: term().id, enabled: true });
    });

    it('every change to what a create is checked against takes effect on the next create', async () => {
      const t0 = term();
      const [old] = (
        await t.ctx.db.execute<{ pem: string; fee_bps: number }>(sql`
          SELECT m.client_public_key AS pem, t.fee_bps FROM merchants m JOIN terminals t ON t.merchant_id = m.id
          WHERE t.id = ${t0.id}`)
      ).rows;
      const methods = (
        await t.ctx.db.execute<{ id: number; max_amount: string }>(sql`
          SELECT m.id, m.max_amount::text FROM payment_methods m JOIN terminal_methods tm ON tm.payment_method_id = m.id
          WHERE tm.terminal_id = ${t0.id}`)
      ).rows;
      const [maxAttr] = (
        await t.ctx.db.execute<{ id: number }>(
          sql`SELECT id FROM "references" WHERE header_id = 105 AND code = 'MAX_INVOICE_AMOUNT'`,
        )
      ).rows;
      await created();
      try {
        // the fee
        await t.ctx.db.execute(sql`UPDATE terminals SET fee_bps = ${old!.fee_bps + 70} WHERE id = ${t0.id}`);
        const body = invoiceBody(t0);
        const id = await created(body);
        const fee = await t.ctx.db.execute<{ fee: string }>(sql`SELECT fee::text FROM invoices WHERE id = ${id}`);
        expect(Number(fee.rows[0]!.fee)).toBe(feeFor(body.amount, old!.fee_bps + 70));

        // the terminal's own ceiling (an attribute), then the methods' maximum (a table of its own, shared)
        const [ceiling] = (
          await t.ctx.db.execute<{ value: string }>(
            sql`SELECT value FROM terminal_attributes WHERE terminal_id = ${t0.id} AND attr_type_id = ${maxAttr!.id}`,
          )
        ).rows;
        await t.ctx.db.execute(sql`
          INSERT INTO terminal_attributes (terminal_id, attr_type_id, value) VALUES (${t0.id}, ${maxAttr!.id}, '100')
          ON CONFLICT (terminal_id, attr_type_id) DO UPDATE SET value = '100'`);
        await refused(/./);
        await t.ctx.db.execute(
          ceiling
            ? sql`UPDATE terminal_attributes SET value = ${ceiling.value} WHERE terminal_id = ${t0.id} AND attr_type_id = ${maxAttr!.id}`
            : sql`DELETE FROM terminal_attributes WHERE terminal_id = ${t0.id} AND attr_type_id = ${maxAttr!.id}`,
        );
        await created();
        await t.ctx.db.execute(
          sql`UPDATE payment_methods SET max_amount = 100 WHERE id IN (SELECT payment_method_id FROM terminal_methods WHERE terminal_id = ${t0.id})`,
        );
        await refused(/./);
        for (const m of methods) {
          await t.ctx.db.execute(
            sql`UPDATE payment_methods SET max_amount = ${m.max_amount}::bigint WHERE id = ${m.id}`,
          );
        }
        await created();

        // its methods taken away, then given back
        await t.ctx.db.execute(sql`DELETE FROM terminal_methods WHERE terminal_id = ${t0.id}`);
        await refused(/no payment methods/);
        for (const m of methods) {
          await t.ctx.db.execute(
            sql`INSERT INTO terminal_methods (terminal_id, payment_method_id) VALUES (${t0.id}, ${m.id})`,
          );
        }
        await created();

        // disabled, enabled
        await t.ctx.db.execute(sql`UPDATE terminals SET enabled = false WHERE id = ${t0.id}`);
        await refused(/disabled/);
        await t.ctx.db.execute(sql`UPDATE terminals SET enabled = true WHERE id = ${t0.id}`);
        await created();

        // the key replaced: the old one is refused, the new one accepted
        const { publicKey, privateKey } = generateKeyPairSync('ed25519');
        await t.ctx.db.execute(
          sql`UPDATE merchants SET client_public_key = ${publicKey.export({ type: 'spki', format: 'pem' }).toString()} WHERE id = ${t.demo.merchantId}`,
        );
        const before = await invoices();
        const oldKey = await create();
        expect(oldKey.statusCode).toBe(401);
        expect(await invoices()).toBe(before);
        const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
        await created(invoiceBody(t0), merchantSigner(t.demo.merchantId, pem, t.clock.now));
      } finally {
        await t.ctx.db.execute(
          sql`UPDATE merchants SET client_public_key = ${old!.pem} WHERE id = ${t.demo.merchantId}`,
        );
        await t.ctx.db.execute(sql`UPDATE terminals SET fee_bps = ${old!.fee_bps}, enabled = true WHERE id = ${t0.id}`);
      }
    });

    it.runIf(mode === 'on')(
      'the guard compares the terminal as a value: field by field, whatever their order',
      async () => {
        const t0 = term();
        const [row] = (
          await t.ctx.db.execute<{ pem: string; terminal: Record<string, unknown> }>(
            merchantKeySql(t.demo.merchantId, t0.id),
          )
        ).rows;
        const holds = async (terminal: Record<string, unknown>) =>
          (
            await t.ctx.db.execute<{ ok: boolean }>(
              sql`SELECT (${createGuardSql({ merchantId: t.demo.merchantId, pem: row!.pem, terminalId: t0.id, terminal: JSON.stringify(terminal) })}) AS ok`,
            )
          ).rows[0]!.ok;
        expect(await holds(row!.terminal)).toBe(true);
        // the same fields in reverse order
        expect(await holds(Object.fromEntries(Object.entries(row!.terminal).reverse()))).toBe(true);
        // any one field otherwise: not the terminal the database holds
        for (const [field, value] of Object.entries(row!.terminal)) {
          const other = typeof value === 'boolean' ? !value : typeof value === 'number' ? value + 1 : 'other';
          expect(await holds({ ...row!.terminal, [field]: other }), field).toBe(false);
        }
        const { [Object.keys(row!.terminal)[0]!]: _dropped, ...fewer } = row!.terminal;
        expect(await holds(fewer)).toBe(false);
      },
    );
  });
}
