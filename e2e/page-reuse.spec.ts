import type { Page } from '@playwright/test';
import { expect, test } from './support/auth';

/*
 * A worker's tests share one browser page (support/auth.ts): these two run in order on it, the first leaving behind
 * everything a test can leave on a page, the second finding none of it, and still on the same page.
 */
let first: { page: Page; listeners: number } | null = null;
let heard = 0;

test('a test leaves a session, storage, a route, a listener, a viewport and a second page behind', async ({
  page,
  context,
  signInAs,
}) => {
  await signInAs('owner');
  await page.evaluate(() => {
    localStorage.setItem('left-by-the-first-test', '1');
    sessionStorage.setItem('left-by-the-first-test', '1');
  });
  await page.route('**/api/v1/people/me', (route) => route.fulfill({ status: 418, body: 'teapot' }));
  page.on('request', () => heard++);
  await page.setViewportSize({ width: 500, height: 600 });
  await context.newPage();
  expect((await context.cookies()).length).toBeGreaterThan(0);
  first = { page, listeners: heard };
});

test('the next test on the worker finds none of it', async ({ page, context, baseURL }) => {
  expect(first, 'the first test ran before, in this worker').not.toBeNull();
  expect(context.pages()).toEqual([page]);
  expect(await context.cookies()).toEqual([]);
  expect(page.viewportSize()).toEqual({ width: 1280, height: 720 });
  expect(page.url()).toBe(`${baseURL}/api/health`);
  expect(await page.evaluate(() => [localStorage.length, sessionStorage.length])).toEqual([0, 0]);
  // not signed in, and the route is gone: the server itself answers 401
  const me = await page.evaluate(async () => (await fetch('/api/v1/people/me')).status);
  expect(me).toBe(401);
  // the first test's listener heard nothing of this test's requests
  expect(heard).toBe(first!.listeners);
  // as every page of the suite, it asks for reduced motion: the app's dialogs open without a transition
  expect(await page.evaluate(() => matchMedia('(prefers-reduced-motion: reduce)').matches)).toBe(true);
  // and it is the same page, navigated: cheaper than a new one, which is the point
  expect(page).toBe(first!.page);
});
