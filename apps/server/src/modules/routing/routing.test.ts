import { describe, expect, it } from 'vitest';
import { pickAccount } from './service';

const acc = (accountId: number, over: Partial<Parameters<typeof pickAccount>[0][number]> = {}) => ({
  accountId,
  limit: 1000n,
  priority: 0,
  checkUniqueAmount: false,
  balance: 0n,
  reserved: 0n,
  amountTaken: false,
  ...over,
});

describe('routing rule', () => {
  it('takes the highest priority account with room', () => {
    expect(pickAccount([acc(1, { priority: 1 }), acc(2, { priority: 5 })], 100)?.accountId).toBe(2);
    expect(pickAccount([acc(1, { priority: 1 }), acc(2, { priority: 5, balance: 950n })], 100)?.accountId).toBe(1);
    expect(pickAccount([acc(1, { priority: 1, reserved: 901n })], 100)).toBeNull();
    expect(pickAccount([acc(1, { reserved: 900n })], 100)?.accountId).toBe(1);
  });
  it('skips a unique-amount account whose amount is taken', () => {
    expect(
      pickAccount([acc(1, { priority: 9, checkUniqueAmount: true, amountTaken: true }), acc(2)], 100)?.accountId,
    ).toBe(2);
    expect(
      pickAccount([acc(1, { priority: 9, checkUniqueAmount: false, amountTaken: true }), acc(2)], 100)?.accountId,
    ).toBe(1);
  });
  it('ties go to the lower id (stable)', () => {
    expect(pickAccount([acc(7), acc(3)], 100)?.accountId).toBe(3);
  });
});
