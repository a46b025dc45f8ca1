import { describe, expect, it } from 'vitest';
import { parseAuditState, toAuditQuery, toAuditSearchParams } from './audit-filters';

const MERCHANT = '0b6f7f8e-6a3c-4d55-9a0e-3f1b2c4d5e6f';

describe('audit filters in the URL', () => {
  it('keeps valid values and drops malformed ones', () => {
    const s = parseAuditState(
      new URLSearchParams(
        `actor=ops&action=invoice.status_changed&merchant=${MERCHANT}&dateFrom=01/11/2026&dateTo=31/02/2026&page=2&size=50`,
      ),
    );
    expect(s).toEqual({
      actor: 'ops',
      action: 'invoice.status_changed',
      merchant: MERCHANT,
      dateFrom: '01/11/2026',
      dateTo: null,
      page: 2,
      size: 50,
    });
    const bad = parseAuditState(new URLSearchParams('action=drop.tables&merchant=nope&page=-1&size=7'));
    expect(bad).toMatchObject({ action: null, merchant: null, page: 0, size: 25 });
    expect(parseAuditState(new URLSearchParams('merchant=platform')).merchant).toBe('platform');
  });

  it('round-trips without defaults and sends only what is set', () => {
    const s = parseAuditState(new URLSearchParams('actor=%20ops%20&merchant=platform'));
    expect(toAuditSearchParams(s).toString()).toBe('actor=ops&merchant=platform');
    expect(toAuditQuery(s, false)).toEqual({
      actor: 'ops',
      action: undefined,
      merchant: 'platform',
      dateFrom: undefined,
      dateTo: undefined,
    });
    expect(toAuditQuery({ ...s, page: 3 })).toMatchObject({ page: 3, size: 25 });
  });
});
