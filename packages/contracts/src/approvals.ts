import { z } from 'zod';
import { dataOf } from './common';

/**
 * Two-person control: actions a policy holds back until another person who holds the same permission approves them.
 * An action is named by the permission it needs. `people.account.edit` covers raising an account's limit (its
 * threshold applies to the new limit) and changing a provider account's credentials (always, when on).
 */
export const APPROVAL_ACTIONS = [
  'invoice.status.change',
  'invoice.amount.change',
  'settlement.create',
  'people.account.edit',
  'incoming.resolve',
  'merchant.key.edit',
] as const;
export type ApprovalAction = (typeof APPROVAL_ACTIONS)[number];

/** What each action is, in the words of the Policies tab. */
export const APPROVAL_ACTION_LABELS: Record<ApprovalAction, string> = {
  'invoice.status.change': 'Live status corrections into or out of DONE',
  'invoice.amount.change': 'Amount changes',
  'settlement.create': 'Settlements',
  'people.account.edit': 'Account limit raises and provider account credential changes',
  'incoming.resolve': 'Matching or returning unmatched money',
  'merchant.key.edit': "Replacing a merchant's API public key",
};

export const APPROVAL_STATUSES = ['PENDING', 'APPROVED', 'REJECTED', 'EXPIRED'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** How long a request may wait for its second person. */
export const APPROVAL_EXPIRY_HOURS = 24;

const currencyCode = z.string().regex(/^[A-Z]{3,5}$/, { error: 'A currency code such as UZS' });
const minor = z
  .int({ error: 'A whole number of minor units' })
  .min(0, { error: 'At least 0' })
  .max(Number.MAX_SAFE_INTEGER, { error: 'Too large' });

const approvalPolicy = z.object({
  action: z.enum(APPROVAL_ACTIONS),
  /** null: the platform's policy; a merchant's own (its API key replacement) names it */
  merchantId: z.uuid().nullable(),
  enabled: z.boolean(),
  /** per currency code, minor units: an action at or above it needs approval; a currency not listed: every amount */
  thresholds: z.record(z.string(), z.int()),
  updatedAt: z.iso.datetime().nullable(),
  updatedBy: z.string().nullable(),
});
export type ApprovalPolicy = z.infer<typeof approvalPolicy>;
export const approvalPoliciesResponse = dataOf(z.array(approvalPolicy));
export const approvalPolicyResponse = dataOf(approvalPolicy);
export const approvalPolicyParams = z
  .object({ action: z.enum(APPROVAL_ACTIONS, { error: `One of ${APPROVAL_ACTIONS.join(', ')}` }) })
  .strict();
export const approvalPolicyBody = z
  .object({
    enabled: z.boolean({ error: 'enabled: true or false' }),
    thresholds: z.record(currencyCode, minor).default({}),
  })
  .strict();
export type ApprovalPolicyBody = z.infer<typeof approvalPolicyBody>;

const approvalItem = z.object({
  id: z.uuid(),
  action: z.enum(APPROVAL_ACTIONS),
  merchantId: z.uuid().nullable(),
  merchantName: z.string().nullable(),
  targetType: z.string(),
  targetId: z.string(),
  /** what it does, in words ("Set invoice ORD-1 DONE (was CANCELED)") */
  summary: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  reason: z.string(),
  amount: z.int().nullable(),
  currency: z.string().nullable(),
  status: z.enum(APPROVAL_STATUSES),
  maker: z.string(),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  decidedAt: z.iso.datetime().nullable(),
  decidedBy: z.string().nullable(),
  decisionReason: z.string().nullable(),
  /** why the last approval was refused by the state at that moment (the rule's message) */
  refusal: z.string().nullable(),
  refusedAt: z.iso.datetime().nullable(),
  /** the caller may approve or reject it: it is pending, not theirs, and they hold its permission */
  canDecide: z.boolean(),
});
export type ApprovalItem = z.infer<typeof approvalItem>;

export const approvalListQuery = z
  .object({
    status: z.enum(APPROVAL_STATUSES, { error: 'PENDING, APPROVED, REJECTED or EXPIRED' }).optional(),
    action: z.enum(APPROVAL_ACTIONS).optional(),
    /** the maker's username */
    maker: z.string().trim().min(1).max(100).optional(),
    /** an invoice's (or another target's) requests */
    targetId: z.string().trim().min(1).max(100).optional(),
    after: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z_[0-9a-f-]{36}$/, { error: 'Not a cursor this list gave' })
      .optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  })
  .strict();
export type ApprovalListQuery = z.infer<typeof approvalListQuery>;
export const approvalListResponse = z.object({ data: z.array(approvalItem), next: z.string().nullable() });
export const approvalResponse = dataOf(approvalItem);
export const approvalCountResponse = dataOf(z.object({ pending: z.int() }));

const reason = z
  .string({ error: 'Give a reason' })
  .trim()
  .min(3, { error: 'Give a reason (at least 3 characters)' })
  .max(500, { error: 'At most 500 characters' });
export const approveBody = z.object({ reason: reason.optional() }).strict();
export const rejectBody = z.object({ reason }).strict();

/** 202: the action waits for a second person; nothing has changed yet. */
export const approvalHeldResponse = dataOf(
  z.object({
    approvalRequestId: z.uuid(),
    status: z.literal('PENDING'),
    expiresAt: z.iso.datetime(),
    message: z.string(),
  }),
);
export type ApprovalHeld = z.infer<typeof approvalHeldResponse>['data'];
