import { z } from 'zod';
import { dataOf, scopedQuery } from './common';

import { REFERENCE_HEADER_IDS, isReferenceHeaderId } from './reference-headers';

export { REFERENCE_HEADER_IDS, type ReferenceHeaderId } from './reference-headers';

/** Serial ids are PostgreSQL integers: anything larger cannot exist (and must not reach the database as a 500). */
export const MAX_DB_ID = 2_147_483_647;
export const dbId = (message: string) =>
  z.number({ error: message }).int(message).positive(message).max(MAX_DB_ID, message);
export const dbIdParam = (message: string) =>
  z.coerce.number({ error: message }).int(message).positive(message).max(MAX_DB_ID, message);

export { FLOW_TYPE_HEADER, TERMINAL_ATTRIBUTE_TYPE_HEADER } from './reference-headers';

/** Value types of terminal attributes and credentials (header 102): Integer, String, Char, Boolean, Numeric. */
export const PARAM_TYPES = ['I', 'S', 'C', 'B', 'N'] as const;
export type ParamType = (typeof PARAM_TYPES)[number];
export const PARAM_TYPE_NAMES: Record<ParamType, string> = {
  I: 'Integer',
  S: 'String',
  C: 'Char',
  B: 'Boolean',
  N: 'Numeric',
};

const headerMessage = `refHeaderId must be one of ${REFERENCE_HEADER_IDS.join(', ')}`;
export const referenceQuery = scopedQuery({
  refHeaderId: z.coerce
    .number({ error: headerMessage })
    .int({ error: headerMessage })
    .refine(isReferenceHeaderId, { error: headerMessage }),
});

const referenceItem = z.object({
  id: z.number().int(),
  code: z.string(),
  value: z.string(),
  paramType: z.enum(PARAM_TYPES).optional(),
});
export type ReferenceItem = z.infer<typeof referenceItem>;
export const referenceListResponse = dataOf(z.array(referenceItem));

const currencyItem = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  dimension: z.number().int(),
});
export const currencyListResponse = dataOf(z.array(currencyItem));

const terminalPoolItem = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.string(),
  type: z.string(),
  terminals: z.array(z.object({ id: z.uuid(), name: z.string() })),
});
export type TerminalPoolItem = z.infer<typeof terminalPoolItem>;
export const terminalPoolListResponse = dataOf(z.array(terminalPoolItem));

const providerItem = z.object({ id: z.number().int(), code: z.string(), name: z.string() });
export const providerListResponse = dataOf(z.array(providerItem));

/** Strict query for staff lists that take no parameters besides the merchant scope. */
export const plainScopedQuery = scopedQuery({});

/** Payment methods (for choosing one in the New Account dialog). */
const paymentMethodItem = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  currency: z.object({ code: z.string(), dimension: z.number().int() }),
});
export const paymentMethodListResponse = dataOf(z.array(paymentMethodItem));
