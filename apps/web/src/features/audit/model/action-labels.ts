import type { AuditAction, AuditActorKind } from '@paydesk/contracts/audit';

/** Each audit action as a person reads it. */
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  'auth.sign_in': 'Signed in',
  'auth.sign_in_failed': 'Sign-in failed',
  'auth.password_changed': 'Password changed',
  'user.created': 'User created',
  'user.role_changed': 'User role changed',
  'user.disabled': 'User disabled',
  'user.enabled': 'User enabled',
  'user.password_reset': 'User password reset',
  'role.created': 'Role created',
  'role.updated': 'Role updated',
  'merchant.created': 'Merchant created',
  'merchant.renamed': 'Merchant renamed',
  'merchant.public_key_replaced': 'API public key replaced',
  'merchant.webhook_secret_rotated': 'Webhook secret rotated',
  'settings.changed': 'Settings changed',
  'settlement.created': 'Settlement recorded',
  'invoice.status_changed': 'Invoice status changed',
  'invoice.amount_changed': 'Invoice amount changed',
  'invoice.payout_retried': 'Payout retried',
  'invoice.callback_sent': 'Manual callback sent',
  'ticket.approved': 'Support ticket approved',
  'ticket.rejected': 'Support ticket rejected',
  'account.created': 'Provider account created',
  'account.enabled_changed': 'Provider account switched on/off',
  'account.credential_added': 'Account credential added',
  'account.credential_changed': 'Account credential changed',
  'account.credential_removed': 'Account credential removed',
  'account.limit_changed': 'Account limit changed',
  'terminal.created': 'Terminal created',
  'terminal.updated': 'Terminal updated',
  'terminal.attribute_removed': 'Terminal attribute removed',
  'terminal.switched_to_production': 'Terminal switched to production',
};

export const ACTOR_KIND: Record<AuditActorKind, { label: string; color: string }> = {
  platform: { label: 'platform', color: 'indigo' },
  merchant: { label: 'merchant', color: 'green' },
  system: { label: 'system', color: 'gray' },
  anonymous: { label: 'anonymous', color: 'orange' },
};
