/**
 * The invoice list's constants and its keyset cursor, without zod: the back-office's first screen imports them, and
 * must not load the schemas' library for it (docs/performance.md, "Fewer files, no zod and no Intl on the first
 * screen"). invoices.ts re-exports them with the list's schemas.
 */

/* ---- The list's constants ---- */

export const INVOICE_PAGE_SIZES = [5, 10, 15, 25, 40] as const;
export const INVOICE_DEFAULT_PAGE_SIZE = 10;
export const INVOICE_MIN_PAGE_SIZE = 5;
export const INVOICE_MAX_PAGE_SIZE = 100;
/** The list counts exactly up to this many rows; beyond it `total` is the cap and `totalIsCapped` is true. */
export const INVOICE_TOTAL_CAP = 10_000;
export const INVOICE_SEARCH_MAX = 200;
export const INVOICE_CSV_FILENAME = 'Invoices.csv';

/**
 * A position in the list for keyset pagination (docs/performance.md, "Keyset pagination"): the created time at the
 * database's precision and the id of a row, as one opaque base64url token. "Next" and "previous" cost the same on the
 * first and the millionth row.
 */
export type InvoiceCursor = { createdAt: string; id: string };
const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)$/;
const CURSOR_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const base64url = {
  encode: (s: string) => btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''),
  decode: (s: string) => atob(s.replace(/-/g, '+').replace(/_/g, '/')),
};
export const encodeInvoiceCursor = (c: InvoiceCursor) => base64url.encode(`${c.createdAt}|${c.id}`);
export function decodeInvoiceCursor(token: string): InvoiceCursor | null {
  let text: string;
  try {
    text = base64url.decode(token);
  } catch {
    return null;
  }
  const [createdAt, id, ...rest] = text.split('|');
  if (rest.length || !createdAt || !id || !CURSOR_TIME.test(createdAt) || !CURSOR_ID.test(id)) return null;
  return { createdAt, id };
}
