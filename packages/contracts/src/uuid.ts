/** A UUID in its text form (ids of invoices, merchants, terminals…), any case. Without zod: the back-office's first screen checks ids with it. */
export const isUuid = (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);
