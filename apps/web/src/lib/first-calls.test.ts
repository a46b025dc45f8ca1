import { describe, expect, it } from 'vitest';
import { MERCHANT_PICKER_CALL, MERCHANT_PICKER_QUERY, SESSION_CALL } from '@paydesk/contracts/first-calls';
import indexHtml from '../../index.html?raw';
import { apiUrl } from './api';
import { scopedMerchantStore } from './merchant-scope';

/**
 * The server names these calls in index.html (docs/performance.md); the browser reuses a preloaded answer for the
 * same URL only.
 */
describe('the first calls the server names are the URLs the app asks for', () => {
  it('the merchant picker’s list, whatever merchant is picked (it is not merchant-scoped)', () => {
    scopedMerchantStore.set('00000000-0000-4000-8000-000000000001');
    expect(apiUrl('/api/v1/merchant', MERCHANT_PICKER_QUERY, false)).toBe(MERCHANT_PICKER_CALL);
    scopedMerchantStore.set(null);
  });

  it('the session call, as index.html preloads it', () => {
    expect(indexHtml).toContain(`<link rel="preload" href="${SESSION_CALL}" as="fetch" crossorigin />`);
    expect(apiUrl(SESSION_CALL, {}, false)).toBe(SESSION_CALL);
  });
});
