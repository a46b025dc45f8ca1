import { z } from 'zod';
import { dataOf } from './common';
import { ddMmYyyySchema } from './day-schema';
import { INVOICE_PAGE_SIZES, INVOICE_SEARCH_MAX, INVOICE_DEFAULT_PAGE_SIZE } from './invoices';
import { FLOW_TYPES, INVOICE_STATUSES, statusById } from './statuses';

/**
 * Saved views of the Transactions list: a named set of filters, search and page size
 * that a user keeps for themself or shares with everyone working on the same merchant.
 */
export const SAVED_VIEW_NAME_MAX = 60;
/** How many views one user may keep per merchant (the list above the table stays readable). */
export const SAVED_VIEWS_PER_USER = 30;

const nullableDay = ddMmYyyySchema.nullable().default(null);
const nullableMinor = z.int().min(0).max(Number.MAX_SAFE_INTEGER).nullable().default(null);

/** What a view restores: the list's URL state without its page (a view opens on its first page). */
export const savedViewState = z
  .object({
    search: z.string().trim().max(INVOICE_SEARCH_MAX).default(''),
    terminalId: z.uuid().nullable().default(null),
    statusIds: z
      .array(z.int().refine((id) => statusById(id) !== undefined, { message: 'Unknown invoice status id' }))
      .max(INVOICE_STATUSES.length)
      .default([]),
    dateFrom: nullableDay,
    dateTo: nullableDay,
    lastStatusDate: nullableDay,
    flowType: z.enum(FLOW_TYPES).nullable().default(null),
    sumFrom: nullableMinor,
    sumTo: nullableMinor,
    size: z
      .int()
      .refine((n) => (INVOICE_PAGE_SIZES as readonly number[]).includes(n), {
        message: `Page size must be one of ${INVOICE_PAGE_SIZES.join(', ')}`,
      })
      .default(INVOICE_DEFAULT_PAGE_SIZE),
  })
  .strict();
export type SavedViewState = z.infer<typeof savedViewState>;

const viewName = z
  .string()
  .trim()
  .min(1, 'Give the view a name')
  .max(SAVED_VIEW_NAME_MAX, `At most ${SAVED_VIEW_NAME_MAX} characters`)
  // eslint-disable-next-line no-control-regex
  .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), { message: 'No control characters' });

export const savedViewCreateBody = z
  .object({ name: viewName, shared: z.boolean().default(false), state: savedViewState })
  .strict();
export type SavedViewCreateBody = z.infer<typeof savedViewCreateBody>;

export const savedViewUpdateBody = z
  .object({ name: viewName.optional(), shared: z.boolean().optional(), state: savedViewState.optional() })
  .strict()
  .refine((b) => b.name !== undefined || b.shared !== undefined || b.state !== undefined, {
    message: 'Nothing to change',
  });
export type SavedViewUpdateBody = z.infer<typeof savedViewUpdateBody>;

const savedViewSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  shared: z.boolean(),
  state: savedViewState,
  owner: z.object({ id: z.uuid(), name: z.string() }),
  /** The caller may rename, share and delete it (its owner). */
  mine: z.boolean(),
  /** The caller may delete it (its owner, or a team manager for a shared view). */
  canDelete: z.boolean(),
  updatedAt: z.iso.datetime({ offset: true }),
});
export type SavedView = z.infer<typeof savedViewSchema>;

export const savedViewResponse = dataOf(savedViewSchema);
export const savedViewsResponse = dataOf(z.array(savedViewSchema));
