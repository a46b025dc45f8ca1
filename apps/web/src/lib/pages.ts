/** Route names and paths: features link to each other through these, never by importing each other. */
export const PAGES = {
  Login: '/login',
  Invoices: '/invoices',
  InvoiceDetails: (id: string) => `/invoices/${encodeURIComponent(id)}`,
  Reports: '/reports',
  Merchant: '/merchant',
  Settings: '/settings',
  ChangePassword: '/settings/change-password',
  TwoFactor: '/settings/two-factor',
  /** the full-page setup a user whose organisation requires two-factor sign-in is kept on until it is done */
  TwoFactorSetup: '/two-factor-setup',
  Terminals: '/terminals',
  Monitoring: '/monitoring',
  Notifications: '/notifications',
  Accounts: '/accounts',
  AccountDetails: (id: string) => `/accounts/${encodeURIComponent(id)}`,
  Team: '/team',
  Audit: '/audit',
  /** the operations desk: payments that need a person (platform staff) */
  Exceptions: '/exceptions',
  /** two-person control: requests waiting for a second person, and the decided ones */
  Approvals: '/approvals',
  Payment: (formId: string) => `/payment/${encodeURIComponent(formId)}`,
} as const;

export const SUPPORT_URL: string = import.meta.env.VITE_SUPPORT_URL || 'https://support.example.com';
