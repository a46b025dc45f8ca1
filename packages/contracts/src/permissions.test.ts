import { describe, expect, it } from 'vitest';
import {
  MERCHANT_PERMISSIONS,
  PERMISSIONS,
  PERMISSION_LABELS,
  PLATFORM_PERMISSIONS,
  PRESET_ROLES,
  canSeeMonitoring,
  effectivePermissions,
  permissionsFitScope,
  refusalMessage,
} from './permissions';

describe('platform and merchant permissions', () => {
  it('split every permission into exactly one of the two kinds', () => {
    const platform: readonly string[] = PLATFORM_PERMISSIONS;
    expect(MERCHANT_PERMISSIONS.filter((p) => platform.includes(p))).toEqual([]);
    expect(new Set(PERMISSIONS).size).toBe(PLATFORM_PERMISSIONS.length + MERCHANT_PERMISSIONS.length);
    expect(Object.keys(PERMISSION_LABELS).sort()).toEqual([...PERMISSIONS].sort());
  });

  it('a merchant user never holds a platform permission, whatever its role lists', () => {
    expect(effectivePermissions(PERMISSIONS, 'merchant').sort()).toEqual([...MERCHANT_PERMISSIONS].sort());
    expect(effectivePermissions(PERMISSIONS, 'platform').sort()).toEqual([...PERMISSIONS].sort());
    expect(effectivePermissions(['invoice.status.change', 'no.such.permission', 'merchant.read'], 'merchant')).toEqual([
      'merchant.read',
    ]);
  });

  it('preset roles fit their scope; the platform admin has everything, the merchant owner every merchant permission', () => {
    for (const r of Object.values(PRESET_ROLES)) expect(permissionsFitScope(r.permissions, r.scope)).toBe(true);
    expect([...PRESET_ROLES.platform_admin.permissions].sort()).toEqual([...PERMISSIONS].sort());
    expect([...PRESET_ROLES.merchant_owner.permissions].sort()).toEqual([...MERCHANT_PERMISSIONS].sort());
    expect(PRESET_ROLES.merchant_viewer.permissions).toEqual([]);
    expect(canSeeMonitoring(PRESET_ROLES.merchant_support.permissions)).toBe(false);
    expect(canSeeMonitoring(PRESET_ROLES.merchant_owner.permissions)).toBe(true);
  });

  it('says in words what a refused role may not do, never the raw permission string', () => {
    const m = refusalMessage(['terminal.statistic.settings']);
    expect(m).toBe('Your role does not allow you to open monitoring.');
    expect(m).not.toContain('terminal.statistic');
  });
});
