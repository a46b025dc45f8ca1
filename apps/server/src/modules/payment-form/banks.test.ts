import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { injectSigned, invoiceBody, merchantSigner, type Signer } from '../../../test/merchant-client';

// SBP bank lists per form: a RUB form offers Russian banks with Cyrillic and Latin names.
let t: TestApp;
let sign: Signer;
type Bank = { id: number; value: string; latinValue: string | null; countryCode: string | null; codeInteger: number };

beforeAll(async () => {
  t = await createTestApp();
  sign = merchantSigner(t.demo.merchantId, t.demo.privateKeyPem, t.clock.now);
});
afterAll(async () => t?.close());

async function form(currency: 'RUB' | 'UZS', paymentMethod?: string) {
  const terminal = t.demo.terminals.find((x) => x.flowType === 'WITHDRAWAL' && x.currency === currency && !x.isTest)!;
  const body = invoiceBody(terminal, { amount: 5_000_00, ...(paymentMethod ? { paymentMethod } : {}) });
  const created = (await injectSigned(t.app, sign, 'POST', '/api/merchant/v1/invoices', body)).json().data;
  return `/api/payments/form/${created.formId}`;
}
const banksOf = async (url: string) =>
  (await t.app.inject({ method: 'GET', url: `${url}/banks/sbp` })).json().data as Bank[];

describe('SBP bank list', () => {
  it('a RUB SBP withdrawal lists only Russian banks, Sberbank first, by Cyrillic name with the Latin one', async () => {
    const banks = await banksOf(await form('RUB', 'SBPRUB'));
    expect(banks.every((b) => b.countryCode === 'RU')).toBe(true);
    expect(banks[0]).toMatchObject({ value: 'Сбербанк', latinValue: 'Sberbank' });
    const names = banks.map((b) => b.value);
    for (const name of ['Т-Банк (Тинькофф)', 'ВТБ', 'Альфа-Банк', 'Газпромбанк', 'Райффайзенбанк', 'Совкомбанк'])
      expect(names).toContain(name);
    expect(banks.length).toBeGreaterThanOrEqual(15);
    expect(banks.every((b) => /[А-Яа-яЁё]/.test(b.value) && b.latinValue && /^[\x20-\x7e]+$/.test(b.latinValue))).toBe(
      true,
    );
  });

  it('without a chosen method a RUB form still lists the Russian banks; a UZS form the Uzbek ones', async () => {
    expect((await banksOf(await form('RUB'))).every((b) => b.countryCode === 'RU')).toBe(true);
    const uz = await banksOf(await form('UZS'));
    expect(uz.length).toBeGreaterThan(0);
    expect(uz.every((b) => b.countryCode === 'UZ')).toBe(true);
  });

  it('refuses a bank of another country on completion', async () => {
    const url = await form('RUB', 'SBPRUB');
    const uzBank = (await banksOf(await form('UZS')))[0]!;
    const init = (await t.app.inject({ method: 'POST', url: `${url}/init` })).json().data;
    const sbp = init.methods.find((m: { code: string }) => m.code === 'SBPRUB');
    await t.app.inject({
      method: 'POST',
      url: `${url}/credential`,
      payload: { amount: 5_000_00, paymentMethodId: sbp.id },
    });
    const res = await t.app.inject({
      method: 'POST',
      url: `${url}/complete`,
      payload: { credential: '79991234567', bankCodeInteger: uzBank.codeInteger },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'VALIDATION_ERROR',
      fields: { bankCodeInteger: expect.any(String) },
    });
  });
});
