import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';

/**
 * HTTP that works on any address (hardening issue): HSTS and `upgrade-insecure-requests` only when the
 * product is served over https; pages revalidate (`no-cache`) so a release reaches browsers at once,
 * hashed assets are immutable for a year.
 */
const apps: TestApp[] = [];
afterAll(async () => Promise.all(apps.map((a) => a.close())));

const webDist = path.join(import.meta.dirname, '../../../web/dist');
const hasWeb = fs.existsSync(path.join(webDist, 'index.html'));

describe('security headers follow the scheme the product is served on', () => {
  it('plain http on any address: no HSTS, no upgrade-insecure-requests (the pages would be blank)', async () => {
    const t = await createTestApp();
    apps.push(t);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/people/me', headers: { host: '192.168.1.20:3000' } });
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(String(res.headers['content-security-policy'])).not.toContain('upgrade-insecure-requests');
    expect(String(res.headers['content-security-policy'])).toContain("default-src 'self'");
  });

  it("every answer carries helmet's headers: a success, a refusal, an unknown route, a merchant API error", async () => {
    const t = await createTestApp();
    apps.push(t);
    const answers = await Promise.all([
      t.app.inject({ method: 'GET', url: '/api/health' }),
      t.app.inject({ method: 'GET', url: '/api/v1/people/me' }),
      t.app.inject({ method: 'GET', url: '/api/no-such-route' }),
      t.app.inject({ method: 'POST', url: '/api/merchant/v1/invoices', payload: {} }),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 401, 404, 401]);
    for (const res of answers) {
      expect(res.headers).toMatchObject({
        'content-security-policy': expect.stringContaining("frame-ancestors 'none'"),
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-resource-policy': 'same-origin',
        'origin-agent-cluster': '?1',
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
        'x-dns-prefetch-control': 'off',
        'x-download-options': 'noopen',
        'x-frame-options': 'SAMEORIGIN',
        'x-permitted-cross-domain-policies': 'none',
        'x-xss-protection': '0',
      });
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('API answers are never stored by a cache (no-store), errors and secrets shown once included', async () => {
    const t = await createTestApp();
    apps.push(t);
    const denied = await t.app.inject({ method: 'GET', url: '/api/v1/people/me' });
    expect(denied.headers['cache-control']).toBe('no-store');
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/login',
      payload: { username: 'nobody', password: 'x' },
      remoteAddress: '10.44.0.1',
    });
    expect(login.headers['cache-control']).toBe('no-store');
  });

  it('https (PUBLIC_URL with https): HSTS and upgrade-insecure-requests', async () => {
    const t = await createTestApp({ publicUrl: 'https://pay.example.com' });
    apps.push(t);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/people/me' });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(String(res.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
  });
});

describe.runIf(hasWeb)('caching of pages and assets', () => {
  it('HTML pages are no-cache; hashed assets immutable for a year', async () => {
    const t = await createTestApp({ webDist });
    apps.push(t);
    for (const url of ['/', '/invoices', '/payment/some-form-id']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
    const asset = fs.readdirSync(path.join(webDist, 'assets')).find((f) => f.endsWith('.js'))!;
    const res = await t.app.inject({ method: 'GET', url: `/assets/${asset}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });
});
