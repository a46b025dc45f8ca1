import { z } from 'zod';
import { dataOf } from './common';
import { exactInt } from './exact-int';
import { checkCardNumber } from './card';
import { maskRequisite } from './masking';
import { dbId, dbIdParam, PARAM_TYPES } from './references';

/* ---- Provider ("people") accounts, their credentials and limits ---- */

const accountListItem = z.object({
  id: z.number().int(),
  providerName: z.string(),
  bankName: z.string().nullable(),
  paymentMethodName: z.string(),
  enabled: z.boolean(),
  /** served by the built-in sandbox: test invoices only */
  isSandbox: z.boolean(),
  /** the currency of its payment method */
  currency: z.string(),
});
export type AccountListItem = z.infer<typeof accountListItem>;
export const accountListResponse = dataOf(z.array(accountListItem));

/** Requisite types (reference header 103). */
export const CREDENTIAL_TYPES = ['CARD', 'PHONE'] as const;

const accountCredential = z.object({
  id: z.number().int(),
  credentialType: z.string(),
  paramType: z.string(),
  /** Masked for everyone (a card's first 6 and last 4, a phone's ends); the full value only by an audited reveal. */
  value: z.string(),
});
export type AccountCredential = z.infer<typeof accountCredential>;

const accountDetails = accountListItem.extend({
  providerId: z.number().int(),
  paymentMethodId: z.number().int(),
  ownerName: z.string().nullable(),
  currency: z.object({ code: z.string(), dimension: z.number().int() }),
  credentials: z.array(accountCredential),
});
export type AccountDetails = z.infer<typeof accountDetails>;
export const accountDetailsResponse = dataOf(accountDetails);

export const accountParams = z.object({ id: dbIdParam('Account id must be a positive integer') }).strict();
export const credentialParams = z
  .object({ credentialId: dbIdParam('Credential id must be a positive integer') })
  .strict();

export const accountEnabledBody = z.object({ enabled: z.boolean({ error: 'enabled must be true or false' }) }).strict();
export const accountEnabledResponse = dataOf(accountListItem);

const optionalText = z.string().max(200, 'At most 200 characters').optional();

/** New account: payment method and provider are required. */
export const accountCreateBody = z
  .object({
    paymentMethodId: dbId('Payment method is required'),
    paymentProviderId: dbId('Payment provider is required'),
    bankName: optionalText,
    ownerName: optionalText,
  })
  .strict();
export type AccountCreateBody = z.infer<typeof accountCreateBody>;
export const accountCreateResponse = dataOf(accountListItem);

/* ---- Credential values ---- */

export const CREDENTIAL_MESSAGES = {
  typeRequired: 'Credential type is required',
  paramTypeRequired: 'Parameter type is required',
  valueRequired: 'Value is required',
  cardLength: 'Card number must be 16 to 19 digits',
  cardLuhn: 'Card number is not valid (Luhn check failed)',
  phone: "Phone number must be '+' followed by 10 to 15 digits",
} as const;

/** Spaces and dashes people type inside card and phone numbers are not part of the value. */
export const normalizeCredentialValue = (type: string, value: string) =>
  type === 'CARD' || type === 'PHONE' ? value.replace(/[\s-]/g, '') : value.trim();

/** The message for a credential value of a type, or null when valid (the value as normalised). */
export function credentialValueIssue(type: string, value: string): string | null {
  if (!value) return CREDENTIAL_MESSAGES.valueRequired;
  if (type === 'CARD') {
    const card = checkCardNumber(value);
    if (!card.ok) return card.reason === 'length' ? CREDENTIAL_MESSAGES.cardLength : CREDENTIAL_MESSAGES.cardLuhn;
  }
  if (type === 'PHONE' && !/^\+\d{10,15}$/.test(value)) return CREDENTIAL_MESSAGES.phone;
  return null;
}

/**
 * Card numbers masked as first 6 + ****** + last 4 (masking.ts, maskRequisite); other values are shown as they are to
 * whoever may see the account.
 */
export function maskCredential(type: string, value: string): string {
  return type === 'CARD' ? maskRequisite(type, value) : value;
}

const credentialValue = z.string({ error: CREDENTIAL_MESSAGES.valueRequired }).max(200);

export const credentialCreateBody = z
  .object({
    peopleAccountId: dbId('Account is required'),
    credentialType: z.enum(CREDENTIAL_TYPES, { error: CREDENTIAL_MESSAGES.typeRequired }),
    paramType: z.enum(PARAM_TYPES, { error: CREDENTIAL_MESSAGES.paramTypeRequired }),
    value: credentialValue,
  })
  .strict()
  .superRefine((b, ctx) => {
    const issue = credentialValueIssue(b.credentialType, normalizeCredentialValue(b.credentialType, b.value));
    if (issue) ctx.addIssue({ code: 'custom', path: ['value'], message: issue });
  });
export type CredentialCreateBody = z.infer<typeof credentialCreateBody>;

/** The value alone; its rule depends on the stored credential's type, checked by the server. */
export const credentialUpdateBody = z.object({ value: credentialValue }).strict();
export const credentialResponse = dataOf(accountCredential);

/** The web's credential forms (add: all three; edit: value for a known type). */
export const credentialForm = z
  .object({
    credentialType: z.enum(CREDENTIAL_TYPES, { error: CREDENTIAL_MESSAGES.typeRequired }),
    paramType: z.enum(PARAM_TYPES, { error: CREDENTIAL_MESSAGES.paramTypeRequired }),
    value: z.string().min(1, CREDENTIAL_MESSAGES.valueRequired),
  })
  .superRefine((b, ctx) => {
    const issue = credentialValueIssue(b.credentialType, normalizeCredentialValue(b.credentialType, b.value));
    if (issue) ctx.addIssue({ code: 'custom', path: ['value'], message: issue });
  });
export type CredentialForm = z.infer<typeof credentialForm>;

/* ---- Limits ---- */

export const LIMIT_MESSAGES = {
  limitRequired: 'Limit is required',
  limitInteger: 'Limit must be a whole number of minor units',
  limitMin: 'Limit must be at least 0',
  priorityRequired: 'Priority is required',
  priorityInteger: 'Priority must be a whole number',
  priorityMin: 'Priority must be at least 0',
} as const;

const accountLimit = z.object({
  peopleAccountId: z.number().int(),
  /** exact at any size (contracts/exact-json.ts) */
  limit: exactInt(),
  balance: exactInt(),
  priority: z.number().int(),
  checkUniqueAmount: z.boolean(),
});
export type AccountLimit = z.infer<typeof accountLimit>;
export const accountLimitResponse = dataOf(accountLimit);

export const accountLimitBody = z
  .object({
    peopleAccountId: dbId('Account is required'),
    // any size PostgreSQL's bigint holds, exactly: past 2^53 it travels as a JSON integer read into a bigint
    limit: exactInt(LIMIT_MESSAGES.limitInteger, LIMIT_MESSAGES.limitRequired).refine(
      (v) => BigInt(v) >= 0n,
      LIMIT_MESSAGES.limitMin,
    ),
    priority: z
      .number({ error: LIMIT_MESSAGES.priorityRequired })
      .int(LIMIT_MESSAGES.priorityInteger)
      .min(0, LIMIT_MESSAGES.priorityMin)
      .max(1_000_000, 'Priority must be at most 1000000'),
    checkUniqueAmount: z.boolean({ error: 'Unique amount must be true or false' }),
  })
  .strict();
export type AccountLimitBody = z.infer<typeof accountLimitBody>;

/** The limit input keeps only digits. */
export const digitsOnly = (raw: string) => raw.replace(/\D+/g, '');

/** A provider account credential's full value, shown on purpose: audited and limited per person and hour. */
export const credentialRevealResponse = dataOf(
  z.object({ credentialId: z.int(), accountId: z.int(), credentialType: z.string(), value: z.string() }),
);
