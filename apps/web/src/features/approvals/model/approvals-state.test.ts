import { describe, expect, it } from 'vitest';
import {
  DEFAULT_APPROVALS_STATE,
  approvalsListQuery,
  expiryText,
  formatAge,
  parseApprovalsState,
  targetPath,
  toApprovalsSearchParams,
  withApprovalsFilter,
  type ApprovalsState,
} from './approvals-state';

const parse = (query: string) => parseApprovalsState(new URLSearchParams(query));
const CURSOR = '2026-11-27T01:00:00.000Z_3f1c2b7e-8d4a-4c1e-9a6b-1d2e3f4a5b6c';

describe('the Approvals page state in the URL', () => {
  it('opens on the pending requests of every action, with a plain address', () => {
    expect(parse('')).toEqual(DEFAULT_APPROVALS_STATE);
    expect(DEFAULT_APPROVALS_STATE).toEqual({ status: 'PENDING', action: null, after: null });
    expect(toApprovalsSearchParams(DEFAULT_APPROVALS_STATE).toString()).toBe('');
  });

  it('round-trips a tab, an action and a page', () => {
    const s: ApprovalsState = { status: 'REJECTED', action: 'invoice.amount.change', after: CURSOR };
    const sp = toApprovalsSearchParams(s);
    expect(sp.get('status')).toBe('REJECTED');
    expect(sp.get('action')).toBe('invoice.amount.change');
    expect(parseApprovalsState(sp)).toEqual(s);
  });

  it('drops what the API would refuse instead of sending it', () => {
    expect(parse('status=LOST&action=invoice.delete&after=page-2')).toEqual(DEFAULT_APPROVALS_STATE);
    expect(parse('status=pending')).toEqual(DEFAULT_APPROVALS_STATE);
  });

  it('starts from the first page when the tab or the action changes', () => {
    const s: ApprovalsState = { status: 'PENDING', action: null, after: CURSOR };
    expect(withApprovalsFilter(s, { status: 'APPROVED' })).toEqual({ status: 'APPROVED', action: null, after: null });
    expect(withApprovalsFilter(s, { action: 'settlement.create' })).toEqual({
      status: 'PENDING',
      action: 'settlement.create',
      after: null,
    });
  });

  it('asks the list for the tab, the action and the page (empty values are left out by the client)', () => {
    expect(approvalsListQuery(DEFAULT_APPROVALS_STATE)).toEqual({ status: 'PENDING', action: null, after: null });
    expect(approvalsListQuery({ status: 'EXPIRED', action: 'merchant.key.edit', after: CURSOR })).toEqual({
      status: 'EXPIRED',
      action: 'merchant.key.edit',
      after: CURSOR,
    });
  });
});

describe('what a request shows', () => {
  const now = Date.parse('2026-11-27T10:00:00.000Z');
  it('says how long a waiting request has left', () => {
    expect(expiryText('2026-11-28T09:59:00.000Z', now)).toBe('Expires in 23 h 59 min');
    expect(expiryText('2026-11-27T10:05:00.000Z', now)).toBe('Expires in 5 min');
    expect(expiryText('2026-11-27T10:00:00.000Z', now)).toBe('Expired');
    expect(expiryText('2026-11-27T09:00:00.000Z', now)).toBe('Expired');
  });

  it('says how long ago it was asked for', () => {
    expect(formatAge('2026-11-27T09:59:57.000Z', now)).toBe('3 s');
    expect(formatAge('2026-11-27T07:55:00.000Z', now)).toBe('2 h 5 min');
  });

  it('links an invoice and an account to their screens, nothing else', () => {
    expect(targetPath({ targetType: 'invoice', targetId: 'a1b2' })).toBe('/invoices/a1b2');
    expect(targetPath({ targetType: 'account', targetId: '12' })).toBe('/accounts/12');
    expect(targetPath({ targetType: 'merchant', targetId: 'm1' })).toBeNull();
  });
});
