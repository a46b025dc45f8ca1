import type { Page, TestInfo } from '@playwright/test';
import { expect, test, type DemoRole } from './support/auth';
import { expectedNav } from './support/roles';

// 1200: the navigation breakpoint, where the one-row top bar is tightest
const WIDTHS = [768, 1024, 1200, 1280, 1920] as const;
/** Below this width the navigation sits behind the burger (the AppShell breakpoint `lg`, 75em). */
const NAV_BREAKPOINT = 1200;
const HEIGHT = 900;

type Screen = { name: string; path: string; heading: string; shot?: string };

/** The screens of the back-office a role opens, invoice details included. */
async function screensFor(page: Page, role: DemoRole): Promise<Screen[]> {
  const nav = expectedNav(role).entries;
  // one with a history, so its sections have rows to lay out
  const list = await (await page.request.get('/api/v1/invoice?size=100')).json();
  const rows = list.data as { invoiceId: string; invoiceStatus: { code: string } }[];
  const invoiceId = (
    rows.find((i) => i.invoiceStatus.code === 'DONE') ??
    rows.find((i) => i.invoiceStatus.code !== 'NEW') ??
    rows[0]
  )?.invoiceId;
  expect(invoiceId, 'the demo data has invoices').toBeTruthy();
  const all: (Screen & { entry?: string })[] = [
    { name: 'Transactions', path: '/invoices', heading: 'Transactions', shot: 'transactions' },
    { name: 'invoice details', path: `/invoices/${invoiceId}`, heading: 'Transaction', shot: 'invoice-details' },
    { name: 'Reports', path: '/reports', heading: 'Reports', entry: 'Reports' },
    { name: 'Monitoring', path: '/monitoring', heading: 'Monitoring', entry: 'Monitoring', shot: 'monitoring' },
    { name: 'Terminals', path: '/terminals', heading: 'Terminals' },
    { name: 'Merchant', path: '/merchant', heading: 'Merchant', entry: 'Merchant' },
    { name: 'Accounts', path: '/accounts', heading: 'Accounts', entry: 'Accounts' },
    { name: 'Team', path: '/team', heading: 'Team', entry: 'Team' },
    { name: 'Audit', path: '/audit', heading: 'Audit', entry: 'Audit' },
    { name: 'Approvals', path: '/approvals', heading: 'Approvals', entry: 'Approvals' },
    { name: 'Settings', path: '/settings', heading: 'Settings' },
  ];
  return all.filter((s) => !s.entry || nav.includes(s.entry));
}

/** Requests the page has started and not yet finished, counted from the test's start (see `settled`). */
const inFlight = new WeakMap<Page, Set<unknown>>();
function countRequests(page: Page) {
  const open = new Set<unknown>();
  inFlight.set(page, open);
  page.on('request', (r) => open.add(r));
  page.on('requestfinished', (r) => open.delete(r));
  page.on('requestfailed', (r) => open.delete(r));
}

/** No request in flight for 500 ms, as Playwright's `networkidle` but also after a navigation inside the app. */
async function settled(page: Page) {
  const open = inFlight.get(page)!;
  let quietSince = Date.now();
  while (Date.now() - quietSince < 500) {
    if (open.size) quietSince = Date.now();
    await page.waitForTimeout(50);
  }
}

/**
 * A screen, reached through the app's own router as a click on a link would (the layout is the same as after a load
 * of its address, without loading the app again for each screen and width).
 */
async function open(page: Page, screen: Screen) {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, screen.path);
  await expect(page).toHaveURL(new RegExp(`${screen.path.replace(/[/?]/g, '\\$&')}$`));
  await expect(page.getByRole('heading', { name: screen.heading, level: 1, exact: true })).toBeVisible();
  await expect(page.getByRole('status')).toHaveCount(0, { timeout: 15_000 });
  if (screen.heading === 'Transaction') {
    // every history section open: their tables must fit too
    const sections = page.getByRole('button', { name: /^(Errors|Event Log|Callbacks|Support History|Transactions)\b/ });
    for (const section of await sections.all()) {
      if ((await section.getAttribute('aria-expanded')) === 'false') await section.click();
    }
  }
  // fonts, charts and late rows settle before anything is measured
  await settled(page);
  await expect(page.getByRole('status')).toHaveCount(0, { timeout: 15_000 });
}

/**
 * What sticks out past the right edge of the viewport: the page's own scroll width, and every visible element
 * whose box ends beyond it (elements inside a container that scrolls sideways are that container's business).
 */
function overflow(page: Page) {
  return page.evaluate(() => {
    const vw = window.innerWidth;
    const insideScroller = (el: Element) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        if (/(auto|scroll)/.test(getComputedStyle(p).overflowX)) return true;
      }
      return false;
    };
    const describe = (el: Element) => {
      const label = el.getAttribute('aria-label') ?? el.getAttribute('data-testid') ?? '';
      const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      return `<${el.tagName.toLowerCase()}${label ? ` "${label}"` : ''}> ${text} (right ${Math.round(el.getBoundingClientRect().right)})`;
    };
    const offenders: string[] = [];
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || r.right <= vw + 0.5) continue;
      if (getComputedStyle(el).visibility === 'hidden' || insideScroller(el)) continue;
      offenders.push(describe(el));
    }
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: vw, offenders: offenders.slice(0, 10) };
  });
}

/** The top bar's selects show their whole selected label, never "Der" or "ALL T". */
async function expectFullSelectLabels(page: Page) {
  const inputs = page.getByRole('banner').locator('input[aria-label="Merchant"], input[aria-label="Terminal"]');
  for (const input of await inputs.all()) {
    if (!(await input.isVisible())) continue;
    const fit = await input.evaluate((el: HTMLInputElement) => ({
      value: el.value,
      fits: el.scrollWidth <= el.clientWidth,
    }));
    expect(fit.value, 'the select shows a label').not.toBe('');
    expect(fit.fits, `"${fit.value}" fits its select`).toBe(true);
  }
}

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  // from the top: a full-page capture draws the fixed header where the page was scrolled to
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/** After a change of width: the layout's next two frames drawn, and no request the change set off still open. */
async function relaidOut(page: Page) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const open = inFlight.get(page)!;
  await expect.poll(() => open.size, { timeout: 15_000 }).toBe(0);
}

/*
 * Each screen is opened once a role, at the narrowest width, and then laid out at every width in turn, as a window
 * resized (or a tablet turned) lays it out: the same checks at each width as a load there, for a fifth of the loads.
 */
for (const role of ['admin', 'owner'] as const) {
  test(`${role}: every screen fits each width, ${WIDTHS.join(', ')} px`, async ({ page, signInAs }, testInfo) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: WIDTHS[0], height: HEIGHT });
    countRequests(page);
    await signInAs(role);
    const burger = page.getByRole('banner').getByRole('button', { name: 'Toggle navigation' });
    const nav = page.getByRole('navigation', { name: 'Main navigation' });

    for (const screen of await screensFor(page, role)) {
      await page.setViewportSize({ width: WIDTHS[0], height: HEIGHT });
      await open(page, screen);
      for (const width of WIDTHS) {
        await test.step(`${screen.name} at ${width}px`, async () => {
          await page.setViewportSize({ width, height: HEIGHT });
          await relaidOut(page);
          if (width < NAV_BREAKPOINT) {
            await expect(burger).toBeVisible();
            await expect(nav.getByRole('link', { name: 'Terminals', exact: true })).not.toBeInViewport();
          } else {
            await expect(burger).toBeHidden();
            await expect(nav.getByRole('link', { name: 'Terminals', exact: true })).toBeInViewport();
          }
          const o = await overflow(page);
          expect(o.scrollWidth, `${screen.name} at ${width}px: no sideways page scroll`).toBeLessThanOrEqual(
            o.innerWidth,
          );
          expect(o.offenders, `${screen.name} at ${width}px: nothing past the right edge`).toEqual([]);
          await expectFullSelectLabels(page);
          if (role === 'admin' && screen.shot && [768, 1200, 1280].includes(width)) {
            await screenshot(page, testInfo, `${screen.shot}-${width}`);
          }
        });
      }
    }
  });
}

test('the width check sees what sticks out, and leaves tables scrolling in their card alone', async ({
  page,
  signInAs,
}) => {
  await page.setViewportSize({ width: 1024, height: HEIGHT });
  await signInAs('owner');
  // the list's rows, not its loading state: the check below puts an element inside the table's scroller
  await expect(page.locator('main table tbody tr').first()).toBeVisible();
  await page.evaluate(() => {
    const wide = document.createElement('div');
    wide.style.width = '1500px';
    wide.textContent = 'too wide';
    wide.dataset.testid = 'too-wide';
    const scroller = document.querySelector('table')!.parentElement!;
    const inner = wide.cloneNode(true) as HTMLElement;
    inner.dataset.testid = 'scrolls-in-card';
    scroller.append(inner);
    document.querySelector('main')!.append(wide);
  });
  const o = await overflow(page);
  expect(o.scrollWidth).toBeGreaterThan(o.innerWidth);
  expect(o.offenders.join('\n')).toContain('too-wide');
  expect(o.offenders.join('\n')).not.toContain('scrolls-in-card');
});

test('at 768px the navigation opens from the burger and closes on the way to a page', async ({ page, signInAs }) => {
  await page.setViewportSize({ width: 768, height: HEIGHT });
  await signInAs('admin');
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  const terminals = nav.getByRole('link', { name: 'Terminals', exact: true });
  await expect(terminals).not.toBeInViewport();

  await page.getByRole('button', { name: 'Toggle navigation' }).click();
  await expect(terminals).toBeInViewport();
  await terminals.click();
  await expect(page.getByRole('heading', { name: 'Terminals', level: 1 })).toBeVisible();
  await expect(terminals).not.toBeInViewport();
});

test('a page the role may not open says so in words', async ({ page, signInAs }) => {
  await signInAs('viewer', '/monitoring');
  await expect(page.getByRole('heading', { name: 'Monitoring', level: 1 })).toBeVisible();
  await expect(page.getByText("You don't have access to Monitoring")).toBeVisible();
  await expect(page.getByText(/Permission required|terminal\.statistic/)).toHaveCount(0);
});

test('a malformed or unknown invoice link says the invoice does not exist', async ({ page, signInAs }) => {
  await signInAs('admin');
  for (const path of ['/invoices/not-a-uuid', '/invoices/00000000-0000-4000-8000-000000000000']) {
    await page.goto(path);
    await expect(page.getByText("This invoice doesn't exist")).toBeVisible();
    await expect(page.getByText(/Invalid params|Invalid UUID/)).toHaveCount(0);
    await expect(page.getByRole('link', { name: /Transactions/ }).first()).toBeVisible();
  }
});
