import { PERMISSION_LABELS, type Permission, type RoleScope } from '@paydesk/contracts/permissions';

export const SCOPE_LABEL: Record<RoleScope, string> = { platform: 'Platform', merchant: 'Merchant' };

/** "see balances" → "See balances": a permission as a checkbox label. */
export const permissionLabel = (p: Permission) => {
  const label = PERMISSION_LABELS[p];
  return label.charAt(0).toUpperCase() + label.slice(1);
};

/** The Merchant select's value for platform staff (users with no merchant). */
export const PLATFORM_STAFF = 'platform';
