import {
  AUDIT_ACTIONS,
  AUDIT_PAGE_SIZES,
  auditListQuery,
  type AuditAction,
  type AuditListQuery,
} from '@paydesk/contracts/audit';
import type { z } from 'zod';
import type { QueryParams } from '../../../lib/api';

/**
 * The audit filters and page as they live in the URL (a view can be bookmarked and shared). The
 * URL carries the API's own values (dd/MM/yyyy days); anything malformed is dropped, never sent.
 */
export type AuditFilters = {
  actor: string;
  action: AuditAction | null;
  /** a merchant id or 'platform' (platform staff only) */
  merchant: string | null;
  dateFrom: string | null;
  dateTo: string | null;
};
export type AuditState = AuditFilters & { page: number; size: number };

const DEFAULT_AUDIT_SIZE = AUDIT_PAGE_SIZES[0];
export const EMPTY_AUDIT_FILTERS: AuditFilters = {
  actor: '',
  action: null,
  merchant: null,
  dateFrom: null,
  dateTo: null,
};

const field = auditListQuery.shape;
/** A URL value checked with the API's own rule for that filter; null when absent or invalid. */
const valid = (schema: z.ZodType<string | undefined>, v: string | null): string | null => {
  if (!v) return null;
  const r = schema.safeParse(v);
  return r.success && r.data ? r.data : null;
};

export function parseAuditState(sp: URLSearchParams): AuditState {
  const action = sp.get('action');
  const size = Number(sp.get('size'));
  const page = Number(sp.get('page'));
  return {
    actor: valid(field.actor, sp.get('actor')) ?? '',
    action: action && (AUDIT_ACTIONS as readonly string[]).includes(action) ? (action as AuditAction) : null,
    merchant: valid(field.merchant, sp.get('merchant')),
    dateFrom: valid(field.dateFrom, sp.get('dateFrom')),
    dateTo: valid(field.dateTo, sp.get('dateTo')),
    page: Number.isInteger(page) && page > 0 && page <= 10_000 ? page : 0,
    size: (AUDIT_PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_AUDIT_SIZE,
  };
}

/** The API query of a state; empty values are dropped by the api client. */
export function toAuditQuery(s: AuditState, withPage = true): QueryParams & Partial<AuditListQuery> {
  return {
    actor: s.actor.trim() || undefined,
    action: s.action ?? undefined,
    merchant: s.merchant ?? undefined,
    dateFrom: s.dateFrom ?? undefined,
    dateTo: s.dateTo ?? undefined,
    ...(withPage ? { page: s.page, size: s.size } : {}),
  };
}

/** The URL of a state, without defaults (page 0, the first size). */
export function toAuditSearchParams(s: AuditState): URLSearchParams {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(toAuditQuery(s))) {
    if (v === undefined || v === null || v === '') continue;
    if (k === 'page' && v === 0) continue;
    if (k === 'size' && v === DEFAULT_AUDIT_SIZE) continue;
    sp.set(k, String(v));
  }
  return sp;
}
