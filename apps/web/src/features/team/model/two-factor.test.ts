import { describe, expect, it } from 'vitest';
import { canResetTwoFactor, policyMerchantId } from './two-factor';

const MERCHANT = '0b6f7f8e-6a3c-4d55-9a0e-3f1b2c4d5e6f';
const admin = {
  id: 'a',
  scope: 'platform' as const,
  merchantId: null,
  permissions: ['users.manage', 'merchant.rw.all'],
};
const ops = { id: 'o', scope: 'platform' as const, merchantId: null, permissions: ['merchant.rw.all'] };
const owner = { id: 'w', scope: 'merchant' as const, merchantId: MERCHANT, permissions: ['users.manage'] };

describe('Reset two-factor sign-in in the user actions', () => {
  const withIt = { id: 'u', twoFactorEnabled: true };
  it('is offered to platform staff who manage users, for a user who has it on', () => {
    expect(canResetTwoFactor(admin, withIt)).toBe(true);
    expect(canResetTwoFactor(admin, { ...withIt, twoFactorEnabled: false })).toBe(false);
  });
  it('is never offered to a merchant owner, to staff without users.manage, or on oneself', () => {
    expect(canResetTwoFactor(owner, withIt)).toBe(false);
    expect(canResetTwoFactor(ops, withIt)).toBe(false);
    expect(canResetTwoFactor(admin, { ...withIt, id: admin.id })).toBe(false);
  });
});

describe('the merchant whose two-factor policy the Team page shows', () => {
  it('is a merchant user’s own merchant, whatever the filter', () => {
    expect(policyMerchantId(owner, null)).toBe(MERCHANT);
  });
  it('is the merchant platform staff filtered by, or none', () => {
    expect(policyMerchantId(admin, MERCHANT)).toBe(MERCHANT);
    expect(policyMerchantId(admin, null)).toBeNull();
  });
  it('is none without users.manage', () => {
    expect(policyMerchantId({ ...owner, permissions: [] }, null)).toBeNull();
  });
});
