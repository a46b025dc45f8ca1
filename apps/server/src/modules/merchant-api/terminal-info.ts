import { sql, type Placeholder } from 'drizzle-orm';

/*
 * The terminal a create names, with what the create needs (currency, fee, methods and their limits): one query, read
 * by the create itself (service.ts) and, on the prepared path, inside the signature-key lookup (signature.ts), so that
 * verifying the signature and loading the terminal take one round trip.
 */

export type TerminalInfo = {
  id: string;
  merchant_id: string;
  flow_type: string;
  enabled: boolean;
  is_test: boolean;
  currency_id: number;
  currency_code: string;
  fee_bps: number;
  /** the terminal's MAX_INVOICE_AMOUNT attribute (minor units), if set */
  max_invoice_amount: string | null;
  methods: { id: number; code: string; min: number; max: number }[];
};

/** A terminal with what a create needs; used inside the signature-key lookup (one round trip). */
export const terminalInfoSql = (terminalId: string | Placeholder) => sql`
    SELECT t.id, t.merchant_id, t.flow_type, t.enabled, t.is_test, c.id AS currency_id, c.code AS currency_code,
      t.fee_bps,
      (SELECT ta.value FROM terminal_attributes ta JOIN "references" r ON r.id = ta.attr_type_id
        WHERE ta.terminal_id = t.id AND r.header_id = 105 AND r.code = 'MAX_INVOICE_AMOUNT' LIMIT 1) AS max_invoice_amount,
      COALESCE((SELECT json_agg(json_build_object('id', m.id, 'code', m.code, 'min', m.min_amount, 'max', m.max_amount) ORDER BY m.id)
        FROM terminal_methods tm JOIN payment_methods m ON m.id = tm.payment_method_id WHERE tm.terminal_id = t.id), '[]'::json) AS methods
    FROM terminals t JOIN currencies c ON c.id = t.currency_id WHERE t.id = ${terminalId}`;
