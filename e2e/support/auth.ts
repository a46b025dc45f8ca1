import { expect, test as base, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { portOf } from './servers';

export const DEMO_PASSWORD = 'demo-2026';
export const DEMO_ROLES = ['admin', 'ops', 'owner', 'finance', 'support', 'viewer', 'shop2'] as const;
export type DemoRole = (typeof DEMO_ROLES)[number];

/** Fills the Login screen like a user and waits for the invoices list. */
export async function signIn(page: Page, username: string, password = DEMO_PASSWORD) {
  await page.goto('/login');
  // Role + accessible name: the visual required asterisk is not part of the name.
  await page.getByRole('textbox', { name: 'Username', exact: true }).fill(username);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  const heading = page.getByRole('heading', { name: 'Transactions', level: 1 });
  const toast = page.getByRole('alert');
  await expect(heading.or(toast).first()).toBeVisible();
  if (!(await heading.isVisible()))
    throw new Error(`Log In as ${username} failed: ${await toast.first().textContent()}`);
  await expect(page).toHaveURL(/\/invoices(\?.*)?$/);
}

export async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

/**
 * Signs in through the API, as Log In does (the Login screen itself is tested by signIn's users: shell.spec.ts,
 * a11y.spec.ts, two-factor.spec.ts), and opens the transactions list, where Log In lands. One page load instead of
 * two (Login's, then the app's): the cheaper start of the specs that begin signed in.
 */
async function signInThroughApi(page: Page, baseURL: string, username: string, path?: string) {
  await logIn(page.request, baseURL, username, DEMO_PASSWORD);
  if (path) return void (await page.goto(path));
  await page.goto('/invoices');
  await expect(page.getByRole('heading', { name: 'Transactions', level: 1 })).toBeVisible();
}

/**
 * POST /api/v1/login on a request context, which keeps the session cookie: from the app's own origin, as a browser's
 * request is (the server refuses a write with the session cookie without it).
 */
export async function logIn(request: APIRequestContext, baseURL: string, username: string, password: string) {
  const res = await request.post('/api/v1/login', {
    data: { username, password },
    headers: { origin: new URL(baseURL).origin },
  });
  expect(res.ok(), `Log In as ${username}: ${await res.text()}`).toBe(true);
}

/** The page events a test may listen to: what a test added is removed when it ends (a reused page keeps nothing). */
const TEST_EVENTS = [
  'console',
  'dialog',
  'download',
  'filechooser',
  'frameattached',
  'framenavigated',
  'load',
  'domcontentloaded',
  'pageerror',
  'popup',
  'request',
  'requestfailed',
  'requestfinished',
  'response',
  'websocket',
] as const;

/** A page's listeners as Playwright's client keeps them (an EventEmitter; Page's types show only on/off by event). */
type Listeners = { rawListeners(event: string): unknown[]; removeListener(event: string, listener: unknown): void };

/** A worker's browser page, kept from test to test while they leave it sound. */
type Kept = { context: BrowserContext; page: Page; baseURL: string | undefined } | null;

/**
 * `test` for every spec: its baseURL is the server of the test's own worker (support/servers.ts), and a
 * `signInAs(role)` fixture serves the specs that start signed in.
 *
 * A worker keeps one browser page for its tests instead of opening a context and a page for each (Playwright's
 * default): a new page starts a renderer process, about 1.7 CPU s here against 1.0 for the page load itself
 * (docs/benchmarks.md, "Test suite"). Each test still starts on a page of its own making: before it, the page is on
 * the server's health check with no cookies, no local or session storage, no permissions, no routes and the test's
 * viewport; after it, the listeners it added and the other pages it opened are gone. Whatever the test does first
 * (a sign-in, a `goto`) loads the app afresh. A test that fails, or closes the page, leaves it: the next test gets a
 * new one. A spec whose tests change what cannot be undone on a page (`page.clock`) asks for a page of their own with
 * `test.use({ freshPage: true })`.
 */
export const test = base.extend<
  {
    /** signed in as the role, on the transactions list; or on `path`, loaded at once (the test checks what it shows) */
    signInAs: (role: DemoRole, path?: string) => Promise<void>;
    freshPage: boolean;
  },
  { kept: { current: Kept } }
>({
  // Playwright reads a fixture's dependencies from its first parameter's pattern: this one has none
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use, testInfo) => use(`http://localhost:${portOf(testInfo.parallelIndex)}`),
  freshPage: [false, { option: true }],
  kept: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const kept: { current: Kept } = { current: null };
      await use(kept);
      await kept.current?.context.close();
    },
    { scope: 'worker' },
  ],
  context: async ({ page }, use) => use(page.context()),
  page: async ({ browser, baseURL, viewport, permissions, reducedMotion, freshPage, kept }, use, testInfo) => {
    const options = { baseURL, viewport, permissions, reducedMotion };
    if (freshPage) {
      const context = await browser.newContext(options);
      await use(await context.newPage());
      await context.close();
      return;
    }
    // (a spec may serve its tests from another address: a page of that address, then)
    if (kept.current && (kept.current.page.isClosed() || kept.current.baseURL !== baseURL)) {
      await kept.current.context.close();
      kept.current = null;
    }
    if (!kept.current) {
      const context = await browser.newContext({ baseURL, reducedMotion });
      kept.current = { context, page: await context.newPage(), baseURL };
    }
    const { context, page } = kept.current;
    await context.clearCookies();
    await context.clearPermissions();
    if (permissions?.length) await context.grantPermissions(permissions, { origin: baseURL });
    if (viewport) await page.setViewportSize(viewport);
    // a document of the test's own server, with that origin's storage emptied (the app keeps some there)
    await page.goto('/api/health');
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
    const listeners = page as unknown as Listeners;
    const before = new Map(TEST_EVENTS.map((e) => [e, new Set(listeners.rawListeners(e))]));
    await use(page);
    const sound = testInfo.status === testInfo.expectedStatus && !page.isClosed();
    for (const other of context.pages()) if (other !== page) await other.close();
    if (!sound) {
      await context.close();
      kept.current = null;
      return;
    }
    for (const e of TEST_EVENTS) {
      for (const listener of listeners.rawListeners(e)) {
        if (!before.get(e)!.has(listener)) listeners.removeListener(e, listener);
      }
    }
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await context.unrouteAll({ behavior: 'ignoreErrors' });
  },
  signInAs: async ({ page, baseURL }, use) => {
    await use((role, path) => signInThroughApi(page, baseURL!, role, path));
  },
});

export { expect };
