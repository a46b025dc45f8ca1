/** Every permission string of SPEC §6. */
export const PERMISSIONS = [
  'merchant.rw.all',
  'merchant.read',
  'merchant.read.report',
  'merchant.read.finance',
  'people.account',
  'people.account.edit',
  'terminal.statistic.settings',
  'data.terminal.statistic',
  'settings.read',
  'settings.edit',
  'report.read.balance',
  'report.read.invoice',
  'report.read.provider',
  'report.read.pool.balance',
  'invoice.error.read',
  'invoice.transaction.read',
  'invoice.event.read',
  'merchant.callback.read',
  'merchant.callback.edit',
  'ticket.decision',
  'invoice.amount.change',
  'invoice.status.change',
  'invoice.provider.read',
  'invoice.credentials.read',
  'terminal.prod.change',
  'terminal.attr.read',
  'terminal.create',
  'settlement.create',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export const DEMO_ROLES = {
  admin: [...PERMISSIONS],
  owner: PERMISSIONS.filter((p) => p !== 'merchant.rw.all'),
  support: [
    'invoice.error.read',
    'invoice.transaction.read',
    'invoice.event.read',
    'invoice.provider.read',
    'invoice.credentials.read',
    'merchant.callback.read',
    'ticket.decision',
    'invoice.status.change',
  ],
  viewer: [],
} as const satisfies Record<string, readonly Permission[]>;

export type DemoRole = keyof typeof DEMO_ROLES;

export const hasPermission = (perms: readonly string[], p: Permission) => perms.includes(p);

/** Navigation entries of SPEC §2 and who sees them. */
export const canSeeMonitoring = (perms: readonly string[]) =>
  hasPermission(perms, 'terminal.statistic.settings') && hasPermission(perms, 'data.terminal.statistic');
