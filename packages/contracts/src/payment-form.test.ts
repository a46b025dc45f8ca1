import { describe, expect, it } from 'vitest';
import { luhnValid } from './card';
import { parsePayoutCredential, formCredentialBody, formIdParams } from './payment-form';
import { createInvoiceBody, merchantSignaturePayload } from './merchant-api';
import { callbackBackoffMs } from './engine';

describe('payout credentials', () => {
  it('cards: 16–19 digits with a valid Luhn check digit', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(parsePayoutCredential('card', '4111 1111 1111 1111')).toEqual({ ok: true, value: '4111111111111111' });
    expect(parsePayoutCredential('card', '411111111111111')).toMatchObject({ ok: false });
    expect(parsePayoutCredential('card', '4111111111111112')).toEqual({ ok: false, error: 'Card number is not valid' });
    expect(parsePayoutCredential('card', undefined)).toMatchObject({ ok: false });
  });
  it('phones: a leading + is removed, digits only, at least 9', () => {
    expect(parsePayoutCredential('phone', '+79991234567')).toEqual({ ok: true, value: '79991234567' });
    expect(parsePayoutCredential('phone', '1234')).toEqual({ ok: false, error: 'Fill in the phone number' });
    expect(parsePayoutCredential('phone', '7999abc4567')).toMatchObject({ ok: false });
  });
});

describe('schemas', () => {
  it('refuse unknown fields, fractions and unsafe integers', () => {
    expect(formCredentialBody.safeParse({ amount: 100, paymentMethodId: 1 }).success).toBe(true);
    expect(formCredentialBody.safeParse({ amount: 1.5, paymentMethodId: 1 }).success).toBe(false);
    expect(formCredentialBody.safeParse({ amount: 2 ** 60, paymentMethodId: 1 }).success).toBe(false);
    expect(formCredentialBody.safeParse({ amount: 100, paymentMethodId: 1, x: 1 }).success).toBe(false);
    expect(formIdParams.safeParse({ formId: '../../etc' }).success).toBe(false);
    expect(createInvoiceBody.safeParse({}).success).toBe(false);
  });
  it('signature payload and backoff', () => {
    expect(merchantSignaturePayload(1700000000, 'post', '/a?b=1', '{}')).toBe('1700000000.POST./a?b=1.{}');
    expect(callbackBackoffMs(1)).toBe(30_000);
    expect(callbackBackoffMs(10)).toBe(3_600_000);
  });
});
