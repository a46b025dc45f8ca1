import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { MERCHANT_PICKER_CALL } from '@paydesk/contracts/first-calls';
import { createTestApp, loginAs, type TestApp } from '../test/harness';
import type { Speedup } from './lib/speedups';

/**
 * index.html of a landing address names the files of its screens (route-preloads.json of the web build):
 * Login's for everyone, the transactions list's only for a browser with a session cookie; every other address, and
 * a build without the file, gets index.html as it is.
 */
const apps: TestApp[] = [];
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <title>Paydesk</title>
    <link rel="preload" href="/api/v1/people/me" as="fetch" crossorigin />
    <script type="module" crossorigin src="/assets/main-1.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>
`;

function webBuild(preloads: unknown | null) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paydesk-web-'));
  dirs.push(dir);
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), INDEX);
  fs.writeFileSync(path.join(dir, 'assets/main-1.js'), 'export {};');
  if (preloads) fs.writeFileSync(path.join(dir, 'route-preloads.json'), JSON.stringify(preloads));
  return dir;
}

const PRELOADS = {
  public: { '/login': { js: ['assets/login-page-1.js'], css: [] } },
  signedIn: { '/invoices': { js: ['assets/signed-in-1.js', 'assets/ui-1.js'], css: ['assets/signed-in-1.css'] } },
};

describe('landing pages name their screens’ files', () => {
  it('Login for everyone; the transactions list with a session cookie only; other pages as built', async () => {
    const t = await createTestApp({ webDist: webBuild(PRELOADS) });
    apps.push(t);
    const get = (url: string, cookie?: string) =>
      t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

    const login = await get('/login');
    expect(login.statusCode).toBe(200);
    expect(login.headers['content-type']).toMatch(/^text\/html/);
    expect(login.headers['cache-control']).toBe('no-cache');
    expect(String(login.headers['content-security-policy'])).toContain("default-src 'self'");
    expect(login.body).toContain('<link rel="modulepreload" crossorigin href="/assets/login-page-1.js">');
    expect(login.body).not.toContain('signed-in-1');

    const signedIn = await get('/invoices?page=2', 'jwt=some-session');
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.headers['cache-control']).toBe('no-cache');
    expect(signedIn.headers.vary).toMatch(/cookie/i);
    expect(signedIn.body).toContain('<link rel="modulepreload" crossorigin href="/assets/signed-in-1.js">');
    expect(signedIn.body).toContain('<link rel="modulepreload" crossorigin href="/assets/ui-1.js">');
    expect(signedIn.body).toContain('<link rel="preload" as="style" crossorigin href="/assets/signed-in-1.css">');
    // the links go in the head, the rest of the page as built
    expect(signedIn.body.indexOf('signed-in-1.js')).toBeLessThan(signedIn.body.indexOf('</head>'));
    expect(signedIn.body.replace(/\s*<link rel="(?:modulepreload|preload)"(?: as="\w+")? crossorigin[^>]*>/g, '')).toBe(
      INDEX.replace(/\s*<\/head>/, '\n  </head>'),
    );

    for (const [url, cookie] of [
      ['/invoices', undefined],
      ['/reports', 'jwt=some-session'],
      ['/', undefined],
      // names of Object's own members are no landing addresses
      ['/__proto__', 'jwt=some-session'],
      ['/constructor', undefined],
      ['/hasOwnProperty', 'jwt=some-session'],
    ]) {
      const res = await get(url!, cookie);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.body, url).toBe(INDEX);
    }
  });

  it('a valid session also has its first calls named: the merchant list for a user who picks the merchant only', async () => {
    const t = await createTestApp({ webDist: webBuild(PRELOADS) });
    apps.push(t);
    const page = async (cookie: string) =>
      (await t.app.inject({ method: 'GET', url: '/invoices', headers: { cookie } })).body;
    const merchantList = `<link rel="preload" as="fetch" crossorigin href="${MERCHANT_PICKER_CALL.replace('&', '&amp;')}">`;

    const admin = await page(await loginAs(t.app, 'admin'));
    expect(admin).toContain(merchantList);
    expect(admin).toContain('<link rel="modulepreload" crossorigin href="/assets/signed-in-1.js">');
    for (const who of ['owner', 'viewer']) {
      const res = await page(await loginAs(t.app, who));
      expect(res, who).not.toContain(merchantList);
      expect(res, who).toContain('signed-in-1.js');
    }
    // a cookie that is no session: the files only (the app sends the browser to Login)
    expect(await page('jwt=some-session')).not.toContain(merchantList);
    // Login names no call, whoever asks
    const login = await t.app.inject({
      method: 'GET',
      url: '/login',
      headers: { cookie: await loginAs(t.app, 'admin') },
    });
    expect(login.body).not.toContain(merchantList);
  });

  it('a build without route-preloads.json: every page is index.html as built', async () => {
    const t = await createTestApp({ webDist: webBuild(null) });
    apps.push(t);
    for (const url of ['/login', '/invoices']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { cookie: 'jwt=some-session' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(INDEX);
    }
  });

  it('a new build is served at once: the page and its preloads are read again when they change on disk', async () => {
    const dir = webBuild(PRELOADS);
    const t = await createTestApp({ webDist: dir });
    apps.push(t);
    const login = () => t.app.inject({ method: 'GET', url: '/login' });
    expect((await login()).body).toContain('login-page-1.js');
    // a release: new hashed names, a new entry
    fs.writeFileSync(path.join(dir, 'index.html'), INDEX.replace('main-1.js', 'main-22.js'));
    fs.writeFileSync(
      path.join(dir, 'route-preloads.json'),
      JSON.stringify({ ...PRELOADS, public: { '/login': { js: ['assets/login-page-22.js'], css: [] } } }),
    );
    const after = (await login()).body;
    expect(after).toContain('/assets/main-22.js');
    expect(after).toContain('<link rel="modulepreload" crossorigin href="/assets/login-page-22.js">');
    expect(after).not.toContain('login-page-1.js');
    // and a build that loses the file serves index.html as built
    fs.rmSync(path.join(dir, 'route-preloads.json'));
    expect((await login()).body).toBe(INDEX.replace('main-1.js', 'main-22.js'));
  });
});

describe('landing preloads and first calls, each switched off on its own (SPEEDUPS_OFF)', () => {
  const SESSION_LINK = '<link rel="preload" href="/api/v1/people/me" as="fetch" crossorigin />';
  const merchantList = `<link rel="preload" as="fetch" crossorigin href="${MERCHANT_PICKER_CALL.replace('&', '&amp;')}">`;
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ webDist: webBuild(PRELOADS) });
    apps.push(t);
    admin = await loginAs(t.app, 'admin');
  });
  /** The switch is read at each page: one app serves every combination (as a restart with SPEEDUPS_OFF would). */
  const off = (names: Speedup[]) => {
    t.ctx.config.speedupsOff = new Set(names);
  };
  afterEach(() => off([]));
  const page = async (url: string, cookie?: string) =>
    (await t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} })).body;

  it('landing-preloads off: no page names a screen file; the calls are still named', async () => {
    off(['landing-preloads']);
    for (const url of ['/login', '/invoices', '/reports']) {
      const body = await page(url, admin);
      expect(body, url).not.toContain('modulepreload');
      expect(body, url).not.toContain('as="style"');
      expect(body, url).toContain(SESSION_LINK);
    }
    expect(await page('/invoices', admin)).toContain(merchantList);
  });

  it('first-calls off: no page names a call, not even the session; the screen files are still named', async () => {
    off(['first-calls']);
    for (const url of ['/login', '/invoices', '/reports', '/']) {
      const body = await page(url, admin);
      expect(body, url).not.toContain('as="fetch"');
      expect(body, url).toContain('<script type="module" crossorigin src="/assets/main-1.js"></script>');
    }
    expect(await page('/invoices', admin)).toContain('signed-in-1.js');
    expect(await page('/login')).toContain('login-page-1.js');
  });

  it('both off: every page is index.html as built, without its session-call link', async () => {
    off(['landing-preloads', 'first-calls']);
    const plain = INDEX.replace(`    ${SESSION_LINK}\n`, '');
    expect(plain).not.toBe(INDEX);
    for (const url of ['/login', '/invoices', '/reports']) expect(await page(url, admin), url).toBe(plain);
  });

  it('the merchant list is named from the session as it is now: a session that must change its password loses it', async () => {
    expect(await page('/invoices', admin)).toContain(merchantList);
    await t.ctx.db.execute(sql`UPDATE users SET must_change_password = true WHERE username = 'admin'`);
    try {
      const body = await page('/invoices', admin);
      expect(body).not.toContain(merchantList);
      expect(body).toContain('signed-in-1.js');
    } finally {
      await t.ctx.db.execute(sql`UPDATE users SET must_change_password = false WHERE username = 'admin'`);
    }
  });
});
