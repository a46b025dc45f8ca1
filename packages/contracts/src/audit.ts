import { z } from 'zod';
import { ddMmYyyySchema } from './day-schema';

/** Every kind of audit record; the server writes them in the same transaction as the change. */
export const AUDIT_ACTIONS = [
  'auth.sign_in',
  'auth.sign_in_failed',
  'auth.password_changed',
  'auth.two_factor_enabled',
  'auth.two_factor_disabled',
  'auth.recovery_codes_renewed',
  'user.created',
  'user.role_changed',
  'user.disabled',
  'user.enabled',
  'user.password_reset',
  'user.two_factor_reset',
  'merchant.two_factor_policy_changed',
  'role.created',
  'role.updated',
  'merchant.created',
  'merchant.renamed',
  'merchant.public_key_replaced',
  'merchant.webhook_secret_rotated',
  'settings.changed',
  'settlement.created',
  'invoice.status_changed',
  'invoice.amount_changed',
  'invoice.payout_retried',
  'invoice.callback_sent',
  'callbacks.replayed',
  'incoming.matched',
  'incoming.returned',
  'contradiction.resolved',
  'statement.uploaded',
  'statement.mapping_changed',
  'statement.line_resolved',
  'ticket.approved',
  'ticket.rejected',
  'account.created',
  'account.enabled_changed',
  'account.credential_added',
  'account.credential_changed',
  'account.credential_removed',
  'account.limit_changed',
  'account.paused',
  'account.resumed',
  'terminal.created',
  'terminal.updated',
  'terminal.attribute_removed',
  'terminal.switched_to_production',
  'saved_view.created',
  'saved_view.changed',
  'saved_view.deleted',
  'credentials.revealed',
  'approval.policy_changed',
  'approval.requested',
  'approval.approved',
  'approval.rejected',
  'data_key.rotation_started',
  'data_key.rotation_finished',
  'database.restored',
  'history.archived',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

const AUDIT_ACTOR_KINDS = ['platform', 'merchant', 'system', 'anonymous'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

export const AUDIT_CSV_FILENAME = 'Audit.csv';
export const AUDIT_PAGE_SIZES = [25, 50, 100] as const;

const auditFilter = {
  action: z.enum(AUDIT_ACTIONS, { error: 'Unknown action' }).optional(),
  /** username of the actor (exact, case-insensitive) */
  actor: z.string().trim().max(64).optional(),
  /** platform staff: a merchant id, or 'platform' for records of no merchant; merchant staff always see their own */
  merchant: z
    .union([z.literal('platform'), z.uuid({ error: 'merchant must be a merchant id or "platform"' })])
    .optional(),
  dateFrom: ddMmYyyySchema.optional(),
  dateTo: ddMmYyyySchema.optional(),
};

export const auditCsvQuery = z.object(auditFilter).strict();
export type AuditFilter = z.infer<typeof auditCsvQuery>;
export const auditListQuery = z
  .object({
    ...auditFilter,
    page: z.coerce.number().int().min(0).max(10_000).default(0),
    size: z.coerce.number().int().min(1).max(100).default(25),
  })
  .strict();
export type AuditListQuery = z.infer<typeof auditListQuery>;

const auditEntrySchema = z.object({
  id: z.int(),
  at: z.iso.datetime(),
  actor: z.object({ userId: z.uuid().nullable(), username: z.string().nullable(), kind: z.enum(AUDIT_ACTOR_KINDS) }),
  merchantId: z.uuid().nullable(),
  merchantName: z.string().nullable(),
  action: z.enum(AUDIT_ACTIONS),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  reason: z.string().nullable(),
  ip: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditListResponse = z.object({ data: z.array(auditEntrySchema), total: z.int() });
export type AuditListResponse = z.infer<typeof auditListResponse>;
