import { describe, expect, it } from 'vitest';
import {
  INVOICE_CSV_COLUMNS,
  changeInvoiceAmountBody,
  changeInvoiceStatusBody,
  invoiceListQuery,
  invoiceRuleInput,
  ticketDecisionBody,
} from './invoices';
import { canChangeStatus, canRetry } from './statuses';

const ID = '0b7f6a8e-3c1d-4e2f-9a0b-1c2d3e4f5a6b';

describe('invoiceListQuery', () => {
  it('defaults page 0 and size 10; coerces query strings', () => {
    expect(invoiceListQuery.parse({})).toEqual({ page: 0, size: 10 });
    expect(invoiceListQuery.parse({ page: '3', size: '25', sumFrom: '100', sumTo: '200' })).toMatchObject({
      page: 3,
      size: 25,
      sumFrom: 100,
      sumTo: 200,
    });
  });
  it('statusIds: one value or repeated keys, always an array', () => {
    expect(invoiceListQuery.parse({ statusIds: '4' }).statusIds).toEqual([4]);
    expect(invoiceListQuery.parse({ statusIds: ['1', '4'] }).statusIds).toEqual([1, 4]);
    expect(invoiceListQuery.safeParse({ statusIds: ['1', '77'] }).success).toBe(false);
  });
  it('blank values mean absent; a blank search is trimmed away', () => {
    expect(invoiceListQuery.parse({ search: '   ', dateFrom: '', flowType: '', sumFrom: '', statusIds: '' })).toEqual({
      page: 0,
      size: 10,
    });
    expect(invoiceListQuery.parse({ search: '  FX-1 ' }).search).toBe('FX-1');
  });
  it('refuses NaN, fractions, invalid dates, unknown keys and sizes outside 5..100', () => {
    for (const q of [
      { sumFrom: 'NaN' },
      { sumTo: '1.5' },
      { dateFrom: '30/02/2026' },
      { dateTo: 'Invalid Date' },
      { lastStatusDate: '2026-01-01' },
      { size: '4' },
      { size: '101' },
      { page: '-1' },
      { flowType: 'deposit' },
      { other: '1' },
    ]) {
      expect(invoiceListQuery.safeParse(q).success, JSON.stringify(q)).toBe(false);
    }
  });
});

describe('action bodies', () => {
  it('status: a known status id and a required reason, nothing else', () => {
    const reason = 'Provider confirmed by phone';
    expect(changeInvoiceStatusBody.parse({ invoiceId: ID, statusId: 4, reason: ` ${reason} ` })).toEqual({
      invoiceId: ID,
      statusId: 4,
      reason,
    });
    expect(changeInvoiceStatusBody.safeParse({ invoiceId: ID, statusId: 4 }).error?.issues[0]?.message).toBe(
      'Reason is required',
    );
    expect(changeInvoiceStatusBody.safeParse({ invoiceId: ID, statusId: 4, reason: '  ' }).success).toBe(false);
    expect(changeInvoiceStatusBody.safeParse({ invoiceId: ID, statusId: 7, reason }).success).toBe(false);
    expect(changeInvoiceStatusBody.safeParse({ invoiceId: ID, statusId: 4, reason, x: 1 }).success).toBe(false);
  });
  it('amount: a positive safe integer of minor units, with a reason', () => {
    const reason = 'Customer sent less';
    expect(changeInvoiceAmountBody.parse({ invoiceId: ID, amount: 150000, reason }).amount).toBe(150000);
    expect(changeInvoiceAmountBody.safeParse({ invoiceId: ID, amount: 150000 }).success).toBe(false);
    for (const amount of [0, -1, 1.5, '100', 2 ** 53]) {
      expect(changeInvoiceAmountBody.safeParse({ invoiceId: ID, amount, reason }).success, String(amount)).toBe(false);
    }
  });
  it('ticket decision', () => {
    expect(ticketDecisionBody.safeParse({ ticketId: 3 }).success).toBe(true);
    expect(ticketDecisionBody.safeParse({ ticketId: '3' }).success).toBe(false);
  });
});

describe('rules on API invoices', () => {
  it('invoiceRuleInput feeds the visibility rules of statuses.ts', () => {
    const inv = {
      flowType: { code: 'WITHDRAWAL' as const },
      invoiceStatus: { id: 5, code: 'DECLINED' as const, value: 'Declined' },
      isTestProcessing: true,
    };
    expect(canRetry(invoiceRuleInput(inv))).toBe(true);
    expect(canChangeStatus(invoiceRuleInput(inv), [])).toBe(true);
    expect(canChangeStatus(invoiceRuleInput({ ...inv, isTestProcessing: false }), [])).toBe(false);
  });
  it('CSV columns are unique', () => {
    expect(new Set(INVOICE_CSV_COLUMNS).size).toBe(INVOICE_CSV_COLUMNS.length);
  });
});
