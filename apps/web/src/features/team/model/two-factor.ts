import type { Me } from '@paydesk/contracts/auth';
import { hasPermission } from '@paydesk/contracts/permissions';
import type { TeamUser } from '@paydesk/contracts/team';

type Viewer = Pick<Me, 'id' | 'scope' | 'permissions'>;

/**
 * Resetting someone's second factor (they lost their phone and their recovery codes) is for platform staff who
 * manage users, on a user who has it on, never on oneself; the server enforces the same.
 */
export const canResetTwoFactor = (me: Viewer, user: Pick<TeamUser, 'id' | 'twoFactorEnabled'>) =>
  me.scope === 'platform' &&
  hasPermission(me.permissions, 'users.manage') &&
  user.twoFactorEnabled &&
  user.id !== me.id;

/**
 * Whose team's two-factor policy the Team page shows: a merchant user's own merchant; for platform staff the
 * merchant they filtered the team by (none while they look at everyone or at platform staff).
 */
export function policyMerchantId(me: Pick<Me, 'scope' | 'merchantId' | 'permissions'>, filter: string | null) {
  if (!hasPermission(me.permissions, 'users.manage')) return null;
  if (me.scope === 'merchant') return me.merchantId;
  return filter;
}
