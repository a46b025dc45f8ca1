import { z } from 'zod';
import { dataOf, scopedQuery } from './common';
import { dbId, dbIdParam, PARAM_TYPES, type ParamType } from './references';
import { FLOW_TYPES } from './statuses';
import { FEE_MESSAGE, feeBpsSchema, parseFeePercent } from './fees';
import { majorAmountIssue, majorStringToMinorDigits, minorToMajorInput } from './money';

const terminalListItem = z.object({
  id: z.uuid(),
  name: z.string(),
  paymentFlow: z.enum(FLOW_TYPES),
  currency: z.object({ code: z.string() }),
  isTest: z.boolean(),
  enabled: z.boolean(),
});
export type TerminalListItem = z.infer<typeof terminalListItem>;
export const terminalListResponse = z.object({ data: z.array(terminalListItem) });

/* ---- Validation rules, shared by the server and the web forms ---- */

const NAME_MIN = 3;
const NAME_MESSAGES = {
  required: 'Name is required',
  min: `Name must be at least ${NAME_MIN} characters long`,
} as const;

/** Terminal and merchant names: required, at least 3 characters (after trimming). */
export const entityName = z
  .string({ error: NAME_MESSAGES.required })
  .trim()
  .min(1, NAME_MESSAGES.required)
  .min(NAME_MIN, NAME_MESSAGES.min)
  .max(100, 'Name must be at most 100 characters long');

const ATTRIBUTE_VALUE_MESSAGES = {
  required: 'Value is required',
  min: 'Value must be at least 1 characters long',
  I: 'value is not Integer',
  S: 'value is not String',
  C: 'value is not Char',
  B: 'value is not Boolean',
  N: 'value is not Numeric',
} as const;

// Control characters make a value unprintable in the back-office and in logs.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

/** Whether a non-empty attribute value fits its type. */
function isAttributeValueOfType(paramType: ParamType, value: string): boolean {
  switch (paramType) {
    case 'I':
      return /^-?\d{1,18}$/.test(value);
    case 'S':
      return !CONTROL_CHARS.test(value);
    case 'C':
      return [...value].length === 1 && !CONTROL_CHARS.test(value);
    case 'B':
      return value === 'true' || value === 'false';
    case 'N':
      // only digits and dots, and not an integer: one dot with digits on both sides
      return /^\d+\.\d+$/.test(value);
  }
}

/**
 * The message for an attribute value, or null when it is valid: missing → 'Value is required',
 * empty → 'Value must be at least 1 characters long', otherwise the type's message.
 */
export function attributeValueIssue(paramType: string | null | undefined, value: unknown): string | null {
  if (value === undefined || value === null) return ATTRIBUTE_VALUE_MESSAGES.required;
  if (typeof value !== 'string')
    return isParamType(paramType) ? ATTRIBUTE_VALUE_MESSAGES[paramType] : ATTRIBUTE_VALUE_MESSAGES.S;
  if (value.length < 1) return ATTRIBUTE_VALUE_MESSAGES.min;
  if (!isParamType(paramType)) return null;
  return isAttributeValueOfType(paramType, value) ? null : ATTRIBUTE_VALUE_MESSAGES[paramType];
}

export const isParamType = (v: unknown): v is ParamType =>
  typeof v === 'string' && (PARAM_TYPES as readonly string[]).includes(v);

/** Boolean attributes are chosen from these; a new one starts at 'true'. */
export const BOOLEAN_ATTRIBUTE_OPTIONS = ['true', 'false'] as const;
export const defaultAttributeValue = (paramType: ParamType | undefined) => (paramType === 'B' ? 'true' : '');

/* ---- Terminal details and edits ---- */

const terminalAttribute = z.object({
  id: z.number().int(),
  value: z.string(),
  attrType: z.object({ id: z.number().int(), code: z.string(), value: z.string() }),
  paramType: z.object({ code: z.enum(PARAM_TYPES) }),
});

const terminalDetails = z.object({
  id: z.uuid(),
  name: z.string(),
  paymentFlow: z.enum(FLOW_TYPES),
  /** dimension: the currency's decimal places, which amount attributes (minor units) are converted by */
  currency: z.object({ code: z.string(), dimension: z.int() }),
  isTest: z.boolean(),
  /** The terminal currently processes in test mode (same as isTest; kept for clients that read this field). */
  inTest: z.boolean(),
  enabled: z.boolean(),
  /** Only with terminal.attr.read. */
  attributes: z.array(terminalAttribute).optional(),
  /** The fee in basis points (250 = 2.5 %); only with terminal.attr.read. */
  feeBps: z.int().optional(),
  /** Where callbacks of this terminal's invoices go (an invoice's own callbackUrl wins). */
  callbackUrl: z.string().nullable(),
});
export type TerminalDetails = z.infer<typeof terminalDetails>;
export const terminalDetailsResponse = dataOf(terminalDetails);

export const terminalParams = z.object({ id: z.uuid({ error: 'Terminal id must be a UUID' }) }).strict();

/** An attribute in an edit body. The value's type rule depends on the attribute type, so the server checks it after looking the type up. */
const terminalAttributeInput = z
  .object({
    value: z
      .string({
        error: (iss) =>
          iss.input === undefined || iss.input === null ? ATTRIBUTE_VALUE_MESSAGES.required : 'Value must be a string',
      })
      .max(2000, 'Value must be at most 2000 characters long'),
    attrType: z.object({ id: dbId('Attribute type is required') }).strict(),
  })
  .strict();
export type TerminalAttributeInput = z.infer<typeof terminalAttributeInput>;

const attributeList = z
  .array(terminalAttributeInput)
  .max(200)
  .superRefine((list, ctx) => {
    const seen = new Set<number>();
    list.forEach((a, i) => {
      if (seen.has(a.attrType.id))
        ctx.addIssue({
          code: 'custom',
          path: [i, 'attrType', 'id'],
          message: 'Each attribute type may appear only once',
        });
      seen.add(a.attrType.id);
    });
  });

/** PATCH: name and/or some attributes (upserted by type). */
const CALLBACK_URL_MESSAGE = 'Callback URL must be an http(s) URL';
const isHttpUrl = (s: string) => {
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
};
/** A terminal's callback URL: http(s) only (the server also requires https in production), or null to clear it. */
const callbackUrlSchema = z.string().trim().max(2000, CALLBACK_URL_MESSAGE).refine(isHttpUrl, CALLBACK_URL_MESSAGE);

/**
 * PATCH: any of name (terminal.create), attributes and fee (terminal.attr.read), callback URL
 * (merchant.callback.edit: the merchant's own endpoint).
 */
export const terminalPatchBody = z
  .object({
    name: entityName.optional(),
    attributes: attributeList.optional(),
    feeBps: feeBpsSchema.optional(),
    callbackUrl: callbackUrlSchema.nullable().optional(),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), {
    error: 'Nothing to change: send name, attributes, feeBps or callbackUrl',
  });
export type TerminalPatchBody = z.infer<typeof terminalPatchBody>;

/** PUT: the whole terminal; the attribute list replaces the stored set. */
export const terminalPutBody = z.object({ name: entityName, attributes: attributeList }).strict();
export type TerminalPutBody = z.infer<typeof terminalPutBody>;

export const terminalAttributeDeleteQuery = scopedQuery({
  attributeId: dbIdParam('attributeId must be a positive integer'),
});

/** New terminal: name, flow type (reference id, header 200) and currency (currency id). */
export const terminalCreateBody = z
  .object({
    name: entityName,
    flowTypeId: dbId('Flow type is required'),
    currencyId: dbId('Currency is required'),
  })
  .strict();
export type TerminalCreateBody = z.infer<typeof terminalCreateBody>;
export const merchantTerminalParams = z
  .object({ merchantId: z.uuid({ error: 'Merchant id must be a UUID' }) })
  .strict();

/** PATCH /api/v1/people/me/testDashboard: switch a test terminal to production. */
export const testDashboardBody = z.object({ terminalId: z.uuid({ error: 'terminalId must be a UUID' }) }).strict();
export const testDashboardResponse = dataOf(terminalListItem);

/* ---- Amount attributes: stored in minor units, shown and typed in major units of the terminal's currency ---- */

/** Attribute types (header 105 codes) whose value is an amount in minor units, with the name people read. */
const AMOUNT_ATTRIBUTES: Readonly<Record<string, string>> = { MAX_INVOICE_AMOUNT: 'Maximum invoice amount' };
export const isAmountAttribute = (code: string | undefined): boolean =>
  code !== undefined && Object.hasOwn(AMOUNT_ATTRIBUTES, code);
/** An attribute type's name as the back-office shows it: amount attributes without their storage unit. */
export const attributeLabel = (code: string | undefined, value: string): string =>
  code !== undefined && isAmountAttribute(code) ? AMOUNT_ATTRIBUTES[code]! : value;

/* ---- The web's edit form: the same rules, plus "empty new rows are dropped on save" ---- */

const terminalFormAttribute = z.object({
  /** The stored attribute id; absent for a row added in this edit. */
  id: z.number().int().optional(),
  attrTypeId: z.number().int(),
  paramType: z.enum(PARAM_TYPES),
  label: z.string(),
  /**
   * Set for an amount attribute: the value is then typed in major units with this many decimals (the terminal
   * currency's dimension) and sent in minor units.
   */
  amountDimension: z.int().optional(),
  value: z.string(),
});

export const terminalForm = z.object({
  name: entityName,
  attributes: z.array(terminalFormAttribute).superRefine((rows, ctx) => {
    rows.forEach((row, i) => {
      if (row.value === '') {
        // a new row left empty is dropped on save; a stored one must keep a value (Remove deletes it)
        if (row.id !== undefined)
          ctx.addIssue({ code: 'custom', path: [i, 'value'], message: ATTRIBUTE_VALUE_MESSAGES.required });
        return;
      }
      const issue =
        row.amountDimension !== undefined
          ? majorAmountIssue(row.label, row.value, row.amountDimension)
          : attributeValueIssue(row.paramType, row.value);
      if (issue) ctx.addIssue({ code: 'custom', path: [i, 'value'], message: issue });
    });
  }),
});
export type TerminalForm = z.infer<typeof terminalForm>;

/** A stored attribute value as its form row holds it: amounts in major units, the rest as stored. */
export const attributeFormValue = (value: string, amountDimension: number | undefined): string =>
  amountDimension !== undefined && /^\d+$/.test(value) ? minorToMajorInput(value, amountDimension) : value;

/** The PUT body a submitted form sends: attributes with an empty value are dropped; amounts go in minor units. */
export const terminalFormToPutBody = (form: TerminalForm): TerminalPutBody => ({
  name: form.name,
  attributes: form.attributes
    .filter((a) => a.value !== '')
    .map((a) => ({
      value:
        a.amountDimension !== undefined ? (majorStringToMinorDigits(a.value, a.amountDimension) ?? a.value) : a.value,
      attrType: { id: a.attrTypeId },
    })),
});

/** The terminal page's fee and callback form: the same validators as the server's PATCH body. */
export const terminalSettingsForm = z.object({
  /** a percentage such as "2.5" (parsed to basis points with contracts/fees.ts) */
  feePercent: z.string().refine((s) => parseFeePercent(s) !== null, FEE_MESSAGE),
  /** empty clears it */
  callbackUrl: z.union([z.literal(''), callbackUrlSchema]),
});
export type TerminalSettingsForm = z.infer<typeof terminalSettingsForm>;
