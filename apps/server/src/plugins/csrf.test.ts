import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { createTestApp, DEMO_PASSWORD, loginAs, type TestApp } from '../../test/harness';
import { invoiceBody, merchantSigner } from '../../test/merchant-client';
import { crossSiteRefusal, ownOrigins } from './csrf';

/**
 * A write made with the session cookie is refused unless the browser says this site's own pages sent it
 * (`Origin` of the server, or `Sec-Fetch-Site: same-origin`); the APIs that carry no cookie are not concerned.
 */
let t: TestApp;
let owner: string;
const OWN = 'http://localhost:3000'; // the test app's PUBLIC_URL

beforeAll(async () => {
  t = await createTestApp();
  owner = await loginAs(t.app, 'owner');
});
afterAll(async () => t?.close());

const countViews = async () =>
  Number((await t.ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM saved_views`)).rows[0]!.n);

let n = 0;
/** POST /api/v1/saved-views with the owner's cookie and exactly these headers besides (undefined: not sent). */
const saveView = (headers: Record<string, string | undefined>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/saved-views',
    headers: { cookie: owner, origin: undefined, ...headers },
    payload: { name: `CSRF view ${++n}`, state: { search: 'ORD-1' } },
  });

describe('a write made with the session cookie', () => {
  it('is refused with 403 CSRF_REJECTED without Origin or Sec-Fetch-Site, and writes nothing', async () => {
    const before = await countViews();
    for (const headers of [
      {},
      { referer: 'https://evil.example/page' },
      { referer: `${OWN}/invoices` }, // a Referer alone proves nothing: our pages send none (no-referrer)
    ]) {
      const res = await saveView(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json().error.code).toBe('CSRF_REJECTED');
      expect(res.json().error.message).toMatch(/^Request refused: /);
    }
    expect(await countViews()).toBe(before);
  });

  it('is refused from a foreign Origin, an opaque one, or a page another site sent', async () => {
    const before = await countViews();
    for (const headers of [
      { origin: 'https://evil.example' },
      { origin: 'http://localhost:3000.evil.example' },
      { origin: 'https://localhost:3000' }, // another scheme is another origin
      { origin: 'null' },
      { origin: 'not a url' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'none' },
      { origin: OWN, 'sec-fetch-site': 'cross-site' },
      { origin: OWN, referer: 'https://evil.example/' },
    ]) {
      const res = await saveView(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json().error.code, JSON.stringify(headers)).toBe('CSRF_REJECTED');
    }
    expect(await countViews()).toBe(before);
  });

  it("goes through from the server's own Origin or with Sec-Fetch-Site: same-origin", async () => {
    const before = await countViews();
    for (const headers of [
      { origin: OWN },
      { origin: `${OWN}/` },
      { 'sec-fetch-site': 'same-origin' },
      { origin: OWN, 'sec-fetch-site': 'same-origin' },
      // outside production, the address the request came to is the app's own too (a LAN address, Vite's proxy)
      { origin: 'http://10.0.0.5:3000', host: '10.0.0.5:3000' },
    ]) {
      const res = await saveView(headers);
      expect(res.statusCode, `${JSON.stringify(headers)} ${res.body}`).toBe(201);
    }
    expect(await countViews()).toBe(before + 5);
  });

  it('PATCH and DELETE are refused the same way; reads are not', async () => {
    const created = await saveView({ origin: OWN });
    const id = created.json().data.id as string;
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/saved-views/${id}`,
      headers: { cookie: owner, origin: undefined },
      payload: { name: 'renamed by another site' },
    });
    expect(patch.statusCode).toBe(403);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/saved-views/${id}`,
      headers: { cookie: owner, 'sec-fetch-site': 'cross-site' },
    });
    expect(del.statusCode).toBe(403);
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/v1/saved-views',
      headers: { cookie: owner, origin: undefined },
    });
    expect(list.statusCode).toBe(200);
    const kept = list.json().data.find((v: { id: string }) => v.id === id);
    expect(kept?.name).toBe(created.json().data.name);
  });

  it('sign-out with the session cookie from another site leaves the session alive', async () => {
    const cookie = await loginAs(t.app, 'viewer');
    const forged = await t.app.inject({
      method: 'POST',
      url: '/api/v1/logout',
      headers: { cookie, origin: undefined },
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.json().error.code).toBe('CSRF_REJECTED');
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/people/me', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    const own = await t.app.inject({ method: 'POST', url: '/api/v1/logout', headers: { cookie, origin: OWN } });
    expect(own.statusCode).toBe(200);
  });
});

describe('requests that carry no session cookie', () => {
  it('sign-in: refused when a browser says another site sent it (login CSRF), allowed to a script', async () => {
    const login = (headers: Record<string, string | undefined>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/login',
        headers: { origin: undefined, ...headers },
        payload: { username: 'support', password: DEMO_PASSWORD },
      });
    for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }]) {
      const res = await login(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json().error.code).toBe('CSRF_REJECTED');
      expect(res.cookies.find((c) => c.name === 'jwt')).toBeUndefined();
    }
    expect((await login({})).statusCode).toBe(200);
    expect((await login({ origin: OWN })).statusCode).toBe(200);
  });

  it('the signed merchant API, the provider API and the payment form need no Origin', async () => {
    const sign = merchantSigner(t.demo.merchantId, t.demo.privateKeyPem, t.clock.now);
    const terminal = t.demo.terminals.find((x) => x.flowType === 'DEPOSIT' && x.currency === 'UZS' && !x.isTest)!;
    const path = '/api/merchant/v1/invoices';
    const signed = sign('POST', path, invoiceBody(terminal));
    const created = await t.app.inject({
      method: 'POST',
      url: path,
      headers: { ...signed.headers, origin: undefined },
      payload: signed.raw,
    });
    expect(created.statusCode, created.body).toBe(201);

    const init = await t.app.inject({
      method: 'POST',
      url: `/api/payments/form/${created.json().data.formId}/init`,
      headers: { origin: undefined },
    });
    expect(init.statusCode, init.body).toBe(200);

    // past the provider's token check to the handler: an unknown transaction
    const payout = await t.app.inject({
      method: 'POST',
      url: `/api/provider/v1/payouts/${randomUUID()}`,
      headers: { authorization: 'Bearer dev:SILKPAY', origin: undefined },
      payload: { status: 'DONE' },
    });
    expect(payout.statusCode, payout.body).toBe(404);
  });
});

describe("the server's own origin", () => {
  const req = (protocol: string, host: string, headers: Record<string, string> = {}) =>
    ({ protocol, host, headers }) as unknown as FastifyRequest;

  it('is PUBLIC_URL, and outside production also the address the request came to', () => {
    const dev = { env: 'development' as const, publicUrl: 'https://pay.example.com/app/' };
    expect(ownOrigins(req('http', 'localhost:5173'), dev)).toEqual([
      'https://pay.example.com',
      'http://localhost:5173',
    ]);
    expect(ownOrigins(req('http', 'localhost:3000'), { env: 'development', publicUrl: undefined })).toEqual([
      'http://localhost:3000',
    ]);
  });

  it("in production only PUBLIC_URL: a request's Host header is never believed", () => {
    const prod = { env: 'production' as const, publicUrl: 'https://pay.example.com' };
    expect(ownOrigins(req('https', 'attacker.example'), prod)).toEqual(['https://pay.example.com']);
    const write = (origin: string) => req('https', 'attacker.example', { origin });
    expect(crossSiteRefusal(write('https://attacker.example'), prod, true)).toMatch(/another origin/);
    expect(crossSiteRefusal(write('https://pay.example.com'), prod, true)).toBeNull();
  });
});
