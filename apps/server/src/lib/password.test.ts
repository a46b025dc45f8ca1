import { describe, expect, it } from 'vitest';
import { AppError } from './errors';
import { hashPassword, MAX_QUEUED_ATTEMPTS, verifyPassword, withPasswordSlot } from './password';

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

  it('hashes with scrypt and verifies', async () => {
    const stored = await hashPassword('a long enough passphrase');
    expect(stored).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(await verifyPassword('a long enough passphrase', stored)).toBe(true);
    expect(await verifyPassword('another passphrase', stored)).toBe(false);
  });
});
