/**
 * The calls a signed-in back-office page starts with, known to the server before the app has run: index.html names
 * them (`<link rel="preload" as="fetch">`) so that the browser asks for them while the scripts load
 * (docs/performance.md, "First calls named in index.html"). The app builds the same URLs from these,
 * so that it takes the preloaded answers. No zod: the web's entry imports it.
 */

/** The session: every page's first call (a static preload in index.html). */
export const SESSION_CALL = '/api/v1/people/me';

/** The merchant list of a user who picks the merchant (merchant.rw.all): its first page only. */
export const MERCHANT_PICKER_QUERY = { page: 0, size: 50 } as const;
export const MERCHANT_PICKER_CALL = `/api/v1/merchant?page=${MERCHANT_PICKER_QUERY.page}&size=${MERCHANT_PICKER_QUERY.size}`;
