import { describe, expect, it } from 'vitest';
import { balanceReportQuery, invoiceReportQuery, isIsoDay, reportDatesForm, reportFileName } from './reports';

describe('report parameters', () => {
  it('isIsoDay accepts real calendar days only', () => {
    expect(isIsoDay('2026-02-28')).toBe(true);
    expect(isIsoDay('2028-02-29')).toBe(true);
    for (const s of ['2026-02-29', '2026-13-01', '26-01-01', '01/02/2026', '2026-1-1', ''])
      expect(isIsoDay(s)).toBe(false);
  });

  it('periodEnd may not precede periodStart', () => {
    const r = invoiceReportQuery.safeParse({ periodStart: '2026-03-02', periodEnd: '2026-03-01' });
    expect(r.error?.issues[0]).toMatchObject({
      path: ['periodEnd'],
      message: 'periodEnd must not be before periodStart',
    });
    expect(invoiceReportQuery.safeParse({ periodStart: '2026-03-01', periodEnd: '2026-03-01' }).success).toBe(true);
  });

  it('a currency by its id (currencyId) or its code (currency), exactly one', () => {
    const base = { periodStart: '2026-03-01', periodEnd: '2026-03-02' };
    expect(balanceReportQuery.parse({ ...base, currencyId: '2' }).currencyId).toBe(2);
    expect(balanceReportQuery.parse({ ...base, currency: 'UZS' }).currency).toBe('UZS');
    expect(balanceReportQuery.safeParse({ ...base, currencyId: 'UZS' }).success).toBe(false);
    expect(balanceReportQuery.safeParse({ ...base, currency: 'uzs!' }).success).toBe(false);
    expect(balanceReportQuery.safeParse({ ...base, currencyId: '2', currency: 'UZS' }).success).toBe(false);
    expect(balanceReportQuery.safeParse(base).error?.issues[0]?.path).toEqual(['currencyId']);
  });

  it('the web form needs both dates, from not after to', () => {
    expect(reportDatesForm.safeParse({ periodStart: '', periodEnd: '2026-01-01' }).error?.issues[0]?.message).toBe(
      'Date From is required',
    );
    expect(
      reportDatesForm.safeParse({ periodStart: '2026-01-02', periodEnd: '2026-01-01' }).error?.issues[0]?.message,
    ).toBe('Date To cannot precede Date From');
  });

  it('file names', () => {
    expect(reportFileName('invoice', '2026-11-01', '2026-11-21')).toBe('report-invoice-2026-11-01_2026-11-21.csv');
    expect(reportFileName('pool/balance', '2026-11-01', '2026-11-21')).toBe(
      'report-pool-balance-2026-11-01_2026-11-21.csv',
    );
  });
});
