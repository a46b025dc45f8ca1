import { z } from 'zod';
import { dataOf } from './common';
import { amountMinor } from './merchant-api';
import { INVOICE_STATUS_CODES } from './statuses';
import { checkCardNumber } from './card';

export const PAYMENT_FORM_PREFIX = '/api/payments/form';

/** 24 random bytes in base64url: 32 characters. */
export const formIdParams = z
  .object({ formId: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'Invalid form id') })
  .strict();

const formMethod = z.object({
  id: z.int(),
  name: z.string(),
  code: z.string(),
  type: z.enum(['card', 'phone']),
  isBankTransfer: z.boolean(),
  minAmount: z.int(),
  maxAmount: z.int(),
});
export type FormMethod = z.infer<typeof formMethod>;

const formInit = z.object({
  invoiceId: z.uuid(),
  successUrl: z.string().nullable(),
  cancelUrl: z.string().nullable(),
  errorUrl: z.string().nullable(),
  methods: z.array(formMethod),
  paymentMethodId: z.int().nullable(),
  paymentMethodName: z.string().nullable(),
  type: z.enum(['Deposit', 'Withdrawal']),
  canChangeAmount: z.boolean(),
  amount: z.int(),
  currencyInfo: z.object({ code: z.string(), dimension: z.int(), minValue: z.int(), maxValue: z.int() }),
  expiredIn: z.int(),
  status: z.enum(INVOICE_STATUS_CODES),
  verificationKey: z.string(),
});
export type FormInit = z.infer<typeof formInit>;
export const formInitResponse = dataOf(formInit);

export const formCredentialBody = z
  .object({
    amount: amountMinor,
    paymentMethodId: z.int().positive().max(2_147_483_647),
    supportCode: z.string().max(64).optional(),
  })
  .strict();
export type FormCredentialBody = z.infer<typeof formCredentialBody>;

const formCredentials = z.object({
  value: z.string(),
  owner: z.string().nullable(),
  country_code: z.string(),
  bank_name: z.string().nullable(),
  type: z.enum(['card', 'by_mobile']),
});
export type FormCredentials = z.infer<typeof formCredentials>;
export const formCredentialResponse = dataOf(z.object({ amount: z.int(), credentials: formCredentials.nullable() }));

export const formCompleteBody = z
  .object({
    credential: z.string().max(64).optional(),
    bankCodeInteger: z.int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  })
  .strict();
export type FormCompleteBody = z.infer<typeof formCompleteBody>;
export const formCompleteResponse = dataOf(z.object({ successUrl: z.string().nullable() }));

export const formStatusResponse = dataOf(z.object({ status: z.enum(INVOICE_STATUS_CODES) }));

/** value is the bank's own name (Cyrillic for Russian banks); latinValue its Latin name, if different. */
const bankOption = z.object({
  id: z.int(),
  value: z.string(),
  latinValue: z.string().nullable(),
  countryCode: z.string().nullable(),
  codeInteger: z.int(),
});
export type BankOption = z.infer<typeof bankOption>;
export const banksResponse = dataOf(z.array(bankOption));

export const formSupportBody = z
  .object({ supportCode: z.string().max(64).optional(), description: z.string().trim().max(2000).optional() })
  .strict();
export const formSupportResponse = dataOf(z.object({ ticketId: z.int(), status: z.string() }));

export type PayoutCredentialResult = { ok: true; value: string } | { ok: false; error: string };

/**
 * A withdrawal's destination as the customer typed it: a card (16–19 digits, Luhn; spaces and
 * dashes ignored) or a phone number (digits only after a leading '+' is removed, 9–15 digits).
 */
export function parsePayoutCredential(type: 'card' | 'phone', raw: string | undefined): PayoutCredentialResult {
  const s = (raw ?? '').trim();
  if (type === 'card') {
    const card = checkCardNumber(s);
    if (!card.ok)
      return {
        ok: false,
        error: card.reason === 'length' ? 'Card number must have 16 to 19 digits' : 'Card number is not valid',
      };
    return card;
  }
  const phone = s.replace(/^\+/, '').replace(/[\s()-]/g, '');
  if (phone.length < 9) return { ok: false, error: 'Fill in the phone number' };
  if (!/^\d{9,15}$/.test(phone)) return { ok: false, error: 'Phone number must have 9 to 15 digits' };
  return { ok: true, value: phone };
}
