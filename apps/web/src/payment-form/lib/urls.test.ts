import { describe, expect, it } from 'vitest';
import { formIdFromPath, redirectHref } from './urls';

describe('redirectHref', () => {
  it('treats URLs without a protocol as protocol-relative', () => {
    expect(redirectHref('example.com/x')).toBe('//example.com/x');
    expect(redirectHref('  shop.example.com/done?id=1 ')).toBe('//shop.example.com/done?id=1');
  });

  it('keeps absolute, protocol-relative and root-relative URLs', () => {
    expect(redirectHref('https://example.com/x')).toBe('https://example.com/x');
    expect(redirectHref('http://localhost:3100/api/health?ok')).toBe('http://localhost:3100/api/health?ok');
    expect(redirectHref('//example.com/x')).toBe('//example.com/x');
    expect(redirectHref('/api/health')).toBe('/api/health');
  });

  it('gives nothing for an empty URL', () => {
    expect(redirectHref(null)).toBeNull();
    expect(redirectHref(undefined)).toBeNull();
    expect(redirectHref('  ')).toBeNull();
  });
});

describe('formIdFromPath', () => {
  it('reads /payment/:formId', () => {
    expect(formIdFromPath('/payment/abcDEF_123-xyz')).toBe('abcDEF_123-xyz');
    expect(formIdFromPath('/payment/abc/')).toBe('abc');
    expect(formIdFromPath('/payment/')).toBeNull();
    expect(formIdFromPath('/invoices')).toBeNull();
  });
});
