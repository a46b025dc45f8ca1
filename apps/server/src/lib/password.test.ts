import { describe, expect, it } from 'vitest';
import { AppError } from './errors';
import { hashPassword, MAX_QUEUED_ATTEMPTS, passwordHashCost, verifyPassword, withPasswordSlot } from './password';

describe('password hashing queue', () => {
  it('admits a bounded number of attempts; past it a caller is refused at once with 503, and admitted again later', async () => {
    const release: (() => void)[] = [];
    const held = Array.from({ length: MAX_QUEUED_ATTEMPTS }, () =>
      withPasswordSlot(() => new Promise<void>((r) => release.push(r))),
    );
    let ran = false;
    const refused = await withPasswordSlot(async () => {
      ran = true;
    }).catch((e: unknown) => e);
    expect(ran).toBe(false);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).statusCode).toBe(503);
    expect((refused as AppError).code).toBe('SERVICE_BUSY');
    expect((refused as AppError).headers).toEqual({ 'retry-after': '2' });
    for (const r of release) r();
    await Promise.all(held);
    expect(await withPasswordSlot(async () => 'in')).toBe('in');
  });

  it('hashes with scrypt at N=2^17 unless told a cost, never under it in production', () => {
    expect(passwordHashCost({})).toBe(17);
    expect(passwordHashCost({ PASSWORD_HASH_COST: '14', NODE_ENV: 'test' })).toBe(14);
    expect(passwordHashCost({ PASSWORD_HASH_COST: '18', NODE_ENV: 'production' })).toBe(18);
    expect(() => passwordHashCost({ PASSWORD_HASH_COST: '14', NODE_ENV: 'production' })).toThrow(/from 17 to 20/);
    expect(() => passwordHashCost({ PASSWORD_HASH_COST: '12' })).toThrow(/from 14 to 20/);
    expect(() => passwordHashCost({ PASSWORD_HASH_COST: 'x' })).toThrow();
  });

  it('hashes with scrypt at the cost set and verifies', async () => {
    const stored = await hashPassword('a long enough passphrase');
    expect(stored).toMatch(new RegExp(`^scrypt\\$${2 ** passwordHashCost()}\\$8\\$1\\$`));
    expect(await verifyPassword('a long enough passphrase', stored)).toBe(true);
    expect(await verifyPassword('another passphrase', stored)).toBe(false);
  });
});
