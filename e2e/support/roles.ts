import { PRESET_ROLES, canSeeMonitoring, type PresetRoleCode } from '../../packages/contracts/src/permissions';
import { APPROVAL_ACTIONS } from '../../packages/contracts/src/approvals';
import type { DemoRole } from './auth';

/** The preset role each demo user holds (the server's seed). */
const ROLE_OF: Record<DemoRole, PresetRoleCode> = {
  admin: 'platform_admin',
  ops: 'platform_operator',
  owner: 'merchant_owner',
  finance: 'merchant_finance',
  support: 'merchant_support',
  viewer: 'merchant_viewer',
  shop2: 'merchant_owner',
};

export const permissionsOf = (user: DemoRole): readonly string[] => PRESET_ROLES[ROLE_OF[user]].permissions;

export const ALL_NAV_ENTRIES = [
  'Dashboard',
  'Reports',
  'Merchant',
  'Terminals',
  'Accounts',
  'Monitoring',
  'Team',
  'Audit',
  'Exceptions',
  'Approvals',
] as const;

/** Which navigation entries a demo user's role gives (docs/architecture.md, "Who is who"). */
export function expectedNav(user: DemoRole) {
  const p = permissionsOf(user);
  const has = (x: string) => p.includes(x);
  const visible: Record<(typeof ALL_NAV_ENTRIES)[number], boolean> = {
    Dashboard: true,
    Reports: has('merchant.read.report'),
    Merchant: has('merchant.read'),
    Terminals: true,
    Accounts: has('people.account'),
    Monitoring: canSeeMonitoring(p),
    Team: has('users.manage'),
    Audit: has('audit.read'),
    Exceptions: has('exceptions.read'),
    // whoever may carry out an action a policy can hold back may decide others' requests for it
    Approvals: APPROVAL_ACTIONS.some(has),
  };
  return {
    entries: ALL_NAV_ENTRIES.filter((e) => visible[e]) as string[],
    merchantPicker: has('merchant.rw.all'),
    autoRetry: has('settings.read'),
  };
}
