/**
 * Who may do what (docs/architecture.md, "Who is who"). Platform permissions decide where money goes and what is true
 * about it: only platform staff (users with no merchant) may hold them. Merchant permissions may
 * be held by either kind; a merchant user uses them on its own merchant only.
 */
export const PLATFORM_PERMISSIONS = [
  'merchant.rw.all',
  'people.account',
  'people.account.edit',
  'report.read.provider',
  'report.read.pool.balance',
  'invoice.status.change',
  'invoice.amount.change',
  'invoice.provider.read',
  'invoice.credentials.read',
  'ticket.decision',
  'terminal.create',
  'terminal.attr.read',
  'terminal.prod.change',
  'settlement.create',
  'invoice.retry',
  'exceptions.read',
  'incoming.resolve',
] as const;

export const MERCHANT_PERMISSIONS = [
  'merchant.read',
  'merchant.read.report',
  'merchant.read.finance',
  'report.read.invoice',
  'report.read.balance',
  'terminal.statistic.settings',
  'data.terminal.statistic',
  'settings.read',
  'settings.edit',
  'invoice.error.read',
  'invoice.transaction.read',
  'invoice.event.read',
  'merchant.callback.read',
  'merchant.callback.edit',
  'merchant.key.edit',
  'users.manage',
  'audit.read',
] as const;

export const PERMISSIONS = [...PLATFORM_PERMISSIONS, ...MERCHANT_PERMISSIONS] as const;
export type PlatformPermission = (typeof PLATFORM_PERMISSIONS)[number];
type MerchantPermission = (typeof MERCHANT_PERMISSIONS)[number];
export type Permission = (typeof PERMISSIONS)[number];

export const ROLE_SCOPES = ['platform', 'merchant'] as const;
export type RoleScope = (typeof ROLE_SCOPES)[number];

const platformSet: ReadonlySet<string> = new Set(PLATFORM_PERMISSIONS);
const knownSet: ReadonlySet<string> = new Set(PERMISSIONS);

const isPermission = (p: string): p is Permission => knownSet.has(p);
export const isPlatformPermission = (p: string): p is PlatformPermission => platformSet.has(p);

/** The scope of a user: platform staff have no merchant. */
export const userScope = (merchantId: string | null | undefined): RoleScope => (merchantId ? 'merchant' : 'platform');

/**
 * The permissions a user really has: its role's, minus anything its scope may not hold.
 * The server computes this once per request; every guard and every view reads only this.
 */
export function effectivePermissions(rolePermissions: readonly string[], scope: RoleScope): Permission[] {
  return rolePermissions.filter(
    (p): p is Permission => isPermission(p) && (scope === 'platform' || !isPlatformPermission(p)),
  );
}

/** A role's permission set is valid for its scope: a merchant role holds no platform permission. */
export const permissionsFitScope = (perms: readonly string[], scope: RoleScope) =>
  scope === 'platform' || perms.every((p) => !isPlatformPermission(p));

/** What each permission lets a person do, in words a refused user can read. */
export const PERMISSION_LABELS: Record<Permission, string> = {
  'merchant.rw.all': 'work on every merchant',
  'people.account': 'view provider accounts',
  'people.account.edit': 'edit provider accounts, requisites and limits',
  'report.read.provider': 'run provider reports',
  'report.read.pool.balance': 'run terminal pool balance reports',
  'invoice.status.change': 'change an invoice status',
  'invoice.amount.change': 'change an invoice amount',
  'invoice.provider.read': 'see provider invoice ids',
  'invoice.credentials.read': 'see payment credentials',
  'ticket.decision': 'approve or reject support tickets',
  'terminal.create': 'create and rename terminals',
  'terminal.attr.read': 'view and edit terminal fees and limits',
  'terminal.prod.change': 'switch a terminal to production',
  'settlement.create': 'record settlements',
  'invoice.retry': 'retry a withdrawal payout',
  'exceptions.read': 'see the operations desk: unmatched money, stuck payments, contradictions',
  'incoming.resolve': 'match or return unmatched money',
  'merchant.read': 'view and rename the merchant',
  'merchant.read.report': 'open reports',
  'merchant.read.finance': 'see balances',
  'report.read.invoice': 'run transaction reports',
  'report.read.balance': 'run balance reports',
  'terminal.statistic.settings': 'open monitoring',
  'data.terminal.statistic': 'see terminal statistics',
  'settings.read': 'see merchant settings',
  'settings.edit': 'change merchant settings',
  'invoice.error.read': 'see invoice errors',
  'invoice.transaction.read': 'see provider transactions',
  'invoice.event.read': 'see the invoice event log',
  'merchant.callback.read': 'see merchant callbacks',
  'merchant.callback.edit': 'send manual callbacks',
  'merchant.key.edit': 'change the API key and webhook secret',
  'users.manage': 'manage the team',
  'audit.read': 'read the audit trail',
};

/** A refusal a person can read: "Your role does not allow you to change an invoice status." */
export function refusalMessage(missing: readonly string[]): string {
  const labels = missing.map((p) => (isPermission(p) ? PERMISSION_LABELS[p] : 'do this'));
  return `Your role does not allow you to ${labels.join(' or ')}.`;
}

/** Every merchant permission that only reads. */
const MERCHANT_WRITES: readonly string[] = [
  'settings.edit',
  'merchant.callback.edit',
  'merchant.key.edit',
  'users.manage',
];
const MERCHANT_READ_ALL: MerchantPermission[] = MERCHANT_PERMISSIONS.filter((p) => !MERCHANT_WRITES.includes(p));

export type PresetRole = { name: string; scope: RoleScope; description: string; permissions: readonly Permission[] };

/** The preset roles, seeded and kept in step with this list at start-up. */
export const PRESET_ROLES = {
  platform_admin: {
    name: 'Platform admin',
    scope: 'platform',
    description: 'Every permission, every merchant; manages staff and roles',
    permissions: PERMISSIONS,
  },
  platform_operator: {
    name: 'Platform operator',
    scope: 'platform',
    description: 'Works invoices, tickets, provider accounts and reports for every merchant',
    // everything but creating terminals, taking them live, settlements, staff and merchants' keys
    permissions: PERMISSIONS.filter(
      (p) =>
        !['terminal.create', 'terminal.prod.change', 'settlement.create', 'users.manage', 'merchant.key.edit'].includes(
          p,
        ),
    ),
  },
  platform_viewer: {
    name: 'Platform viewer',
    scope: 'platform',
    description: 'Reads every merchant, changes nothing',
    permissions: [
      ...MERCHANT_READ_ALL,
      'merchant.rw.all',
      'report.read.provider',
      'report.read.pool.balance',
      'invoice.provider.read',
      'exceptions.read',
    ],
  },
  merchant_owner: {
    name: 'Merchant owner',
    scope: 'merchant',
    description: 'Everything a merchant may do, including its team and keys',
    permissions: MERCHANT_PERMISSIONS,
  },
  merchant_finance: {
    name: 'Merchant finance',
    scope: 'merchant',
    description: 'Balances, reports and transactions',
    permissions: [
      'merchant.read',
      'merchant.read.report',
      'merchant.read.finance',
      'report.read.invoice',
      'report.read.balance',
      'invoice.transaction.read',
      'invoice.event.read',
      'settings.read',
      'audit.read',
    ],
  },
  merchant_developer: {
    name: 'Merchant developer',
    scope: 'merchant',
    description: 'API key, webhook secret and callbacks',
    permissions: [
      'merchant.read',
      'merchant.key.edit',
      'merchant.callback.read',
      'merchant.callback.edit',
      'invoice.error.read',
      'invoice.event.read',
      'terminal.statistic.settings',
      'data.terminal.statistic',
      'settings.read',
    ],
  },
  merchant_support: {
    name: 'Merchant support',
    scope: 'merchant',
    description: 'Reads invoices with their history and callbacks; resends callbacks',
    permissions: [
      'invoice.error.read',
      'invoice.transaction.read',
      'invoice.event.read',
      'merchant.callback.read',
      'merchant.callback.edit',
    ],
  },
  merchant_viewer: {
    name: 'Merchant viewer',
    scope: 'merchant',
    description: 'Sees the invoice list and terminals only',
    permissions: [],
  },
} as const satisfies Record<string, PresetRole>;

export type PresetRoleCode = keyof typeof PRESET_ROLES;

export const hasPermission = (perms: readonly string[], p: Permission) => perms.includes(p);

/** The back-office navigation entries and who sees them. */
export const canSeeMonitoring = (perms: readonly string[]) =>
  hasPermission(perms, 'terminal.statistic.settings') && hasPermission(perms, 'data.terminal.statistic');
