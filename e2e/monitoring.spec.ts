import { generateKeyPairSync } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import type { TerminalStatItem } from '@paydesk/contracts/monitoring';
import { DEMO_PASSWORD, expect, test } from './support/auth';
import { cancelInvoice, createInvoice } from './support/merchant-api';
import { apiSession, suffix } from './support/people';

/**
 * Monitoring's success-rate chart: a time series per terminal with labelled axes, the terminal's
 * thresholds as bands, counts on hover, and table percentages coloured by the thresholds.
 */

type Stat = TerminalStatItem;

const LEVEL_COLOR = { low: 'red', mid: 'orange', high: 'teal' } as const;

/** The computed colour of a Mantine filled colour, to compare with a badge's background. */
const filledColor = (page: Page, color: string) =>
  page.evaluate((c) => {
    const probe = document.createElement('div');
    probe.style.background = `var(--mantine-color-${c}-filled)`;
    document.body.append(probe);
    const value = getComputedStyle(probe).backgroundColor;
    probe.remove();
    return value;
  }, color);

async function openMonitoring(page: Page, minutes: number) {
  const response = page.waitForResponse(
    (r) => r.url().includes('/api/data/v1/terminal?') && r.url().includes(`minutes=${minutes}`),
  );
  await page.getByRole('navigation').getByRole('link', { name: 'Monitoring', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Monitoring', level: 1 })).toBeVisible();
  return (await (await response).json()).data as Stat[];
}

/** Hovers bucket `index` of `count`: the points run from the plot's left edge to its right edge. */
async function hoverBucket(chart: Locator, index: number, count: number) {
  const plot = chart.locator('.recharts-cartesian-grid');
  const box = (await plot.boundingBox())!;
  const x = box.x + (box.width * index) / (count - 1);
  await chart.page().mouse.move(Math.min(x, box.x + box.width - 1), box.y + box.height / 2);
}

test('the success chart has labelled axes, threshold bands and counts on hover; percentages carry the threshold colour', async ({
  page,
  signInAs,
  baseURL,
}, testInfo) => {
  // two fresh invoices on the test deposit terminal land in the bucket of "now"; one is canceled, so that the
  // bucket has a finished invoice and a rate (one still NEW has no outcome yet)
  for (const amount of [1_200_000, 2_300_000]) await createInvoice(baseURL!, { flowType: 'DEPOSIT', amount });
  await cancelInvoice(baseURL!, (await createInvoice(baseURL!, { flowType: 'DEPOSIT', amount: 3_400_000 })).invoiceId);
  await signInAs('owner');
  const stats = await openMonitoring(page, 60);

  const s = stats.find((x) => x.name === 'Test UZS Deposit')!;
  expect(s.bucketMinutes).toBe(5);
  expect(s.series.length).toBeGreaterThanOrEqual(12);
  // the bucket of "now" (or the one before, when the invoices were made just before a boundary)
  const lastIndex = s.series.map((p) => p.finishedCount > 0).lastIndexOf(true);
  const last = s.series[lastIndex]!;
  expect(lastIndex).toBeGreaterThanOrEqual(s.series.length - 2);
  expect(last.total).toBeGreaterThanOrEqual(1);

  // the table: plural count and the success percent coloured by the terminal's thresholds
  const table = page.getByRole('table', { name: 'Terminal statistics' });
  for (const r of stats) {
    const row = table.getByRole('row').filter({ has: page.getByText(r.name, { exact: true }) });
    if (r.total === 0) {
      await expect(row.getByText('no data')).toBeVisible();
      continue;
    }
    await expect(row.getByText(r.total === 1 ? '1 invoice' : `${r.total} invoices`, { exact: true })).toBeVisible();
    const badge = row.getByTestId('success-percent');
    if (r.successPercent === null) {
      // nothing finished yet: neutral, never a red 0 %
      await expect(badge).toHaveText('no data');
      await expect(badge).toHaveAttribute('data-level', 'none');
      continue;
    }
    const low = r.successPercentLowThreshold ?? -Infinity;
    const high = r.successPercentHighThreshold ?? Infinity;
    const level = r.successPercent < low ? 'low' : r.successPercent >= high ? 'high' : 'mid';
    await expect(badge).toHaveAttribute('data-level', level);
    await expect(badge).toHaveCSS('background-color', await filledColor(page, LEVEL_COLOR[level]));
  }

  // the chart of the test terminal
  const chart = page.getByRole('figure', { name: /^Success rate of Test UZS Deposit per 5 minutes/ });
  await expect(chart).toBeVisible();
  await expect(chart.getByText('Time, UTC', { exact: true })).toBeVisible();
  await expect(chart.getByText('Success, %', { exact: true })).toBeVisible();
  await expect(chart.getByText('100', { exact: true })).toBeVisible();
  // seeded thresholds 60 / 85: three bands, named in the legend beside the chart
  expect(s).toMatchObject({ successPercentLowThreshold: 60, successPercentHighThreshold: 85 });
  await expect(chart.locator('.recharts-reference-area')).toHaveCount(3);
  const card = page.getByTestId(`success-chart-${s.terminalId}`);
  const legend = card.getByRole('group', { name: 'Threshold bands' });
  for (const text of ['below 60%', '60–85%', '85% and above'])
    await expect(legend.getByText(text, { exact: true })).toBeVisible();

  await chart.scrollIntoViewIfNeeded();
  await hoverBucket(chart, lastIndex, s.series.length);
  const tooltip = page.getByTestId('success-chart-tooltip');
  await expect(tooltip).toBeVisible();
  const start = new Date(last.t);
  const end = new Date(start.getTime() + 5 * 60_000);
  const hhmm = (d: Date) => d.toISOString().slice(11, 16);
  await expect(tooltip).toContainText(`${hhmm(start)}–${hhmm(end)} UTC`);
  await expect(tooltip).toContainText(
    `${last.total} ${last.total === 1 ? 'invoice' : 'invoices'}: ` +
      (last.successPercent === null
        ? 'none finished yet'
        : `${last.successCount} of ${last.finishedCount} finished successful (${last.successPercent}%)`),
  );

  for (const width of [1280, 768]) {
    await page.setViewportSize({ width, height: 900 });
    await page.mouse.move(0, 0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(chart).toBeVisible();
    // nothing wider than the viewport: the table scrolls inside its card, the charts stack
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    // viewport shots: the layout's fixed bars would be drawn mid-page in a full-page one
    await page.screenshot({ path: testInfo.outputPath(`monitoring-${width}-table.png`) });
    await chart.scrollIntoViewIfNeeded();
    await hoverBucket(chart, lastIndex, s.series.length);
    await expect(tooltip).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`monitoring-${width}-chart.png`) });
  }
});

test('"From day start" starts the series at 00:00 UTC and charts every terminal that had invoices', async ({
  page,
  signInAs,
}, testInfo) => {
  await signInAs('owner');
  await openMonitoring(page, 60);
  const response = page.waitForResponse(
    (r) => r.url().includes('/api/data/v1/terminal?') && new URL(r.url()).searchParams.get('minutes') !== '60',
  );
  await page.getByText('From day start', { exact: true }).click();
  const stats = (await (await response).json()).data as Stat[];
  const today = new Date().toISOString().slice(0, 10);
  for (const s of stats) {
    expect(s.series[0]!.t).toBe(`${today}T00:00:00Z`);
    expect(s.series.reduce((a, p) => a + p.total, 0)).toBe(s.total);
  }
  // a chart for each terminal with a rate: at least one of its invoices has finished
  const withData = stats.filter((x) => x.successPercent !== null);
  expect(withData.length).toBeGreaterThan(0);
  for (const s of withData) {
    const chart = page.getByRole('figure', { name: new RegExp(`^Success rate of ${s.name} per`) });
    await expect(chart).toBeVisible();
    await expect(chart.getByText('00:00', { exact: true })).toBeVisible();
  }
  await page
    .getByRole('figure', { name: new RegExp(`^Success rate of ${withData[0]!.name} per`) })
    .scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath('monitoring-day-1280.png') });
});

/**
 * A merchant of its own with one terminal whose invoices are all NEW (nothing has finished), made through the API
 * as platform staff would: its key is set so the test can sign merchant API calls.
 */
async function quietMerchant(baseURL: string) {
  const admin = await apiSession(baseURL, 'admin', DEMO_PASSWORD);
  const name = `E2E Quiet Shop ${suffix()}`;
  const created = await admin.post('/api/v1/merchant', { data: { name } });
  expect(created.ok(), await created.text()).toBe(true);
  const merchantId: string = (await created.json()).data.id;
  const keys = generateKeyPairSync('ed25519');
  const key = await admin.put(`/api/v1/merchant/${merchantId}/public-key`, {
    data: { clientPublicKey: keys.publicKey.export({ type: 'spki', format: 'pem' }).toString() },
  });
  expect(key.ok(), await key.text()).toBe(true);
  const flows = (await (await admin.get('/api/v1/reference?refHeaderId=200')).json()).data as {
    id: number;
    code: string;
  }[];
  const currencies = (await (await admin.get('/api/v1/reference/currency')).json()).data as {
    id: number;
    code: string;
  }[];
  const terminal = await admin.post(`/api/v1/merchant/${merchantId}/terminal`, {
    data: {
      name: 'Quiet UZS Deposit',
      flowTypeId: flows.find((f) => f.code === 'DEPOSIT')!.id,
      currencyId: currencies.find((c) => c.code === 'UZS')!.id,
    },
  });
  expect(terminal.ok(), await terminal.text()).toBe(true);
  const t = (await terminal.json()).data as { id: string; isTest: boolean };
  await admin.dispose();
  const merchant = {
    merchantId,
    privateKeyPem: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    webhookSecret: '',
    terminals: [
      { id: t.id, name: 'Quiet UZS Deposit', flowType: 'DEPOSIT' as const, currency: 'UZS', isTest: t.isTest },
    ],
  };
  // created and left alone: no customer opens the form, so both stay NEW
  for (const amount of [1_100_000, 2_200_000])
    await createInvoice(baseURL, { flowType: 'DEPOSIT', amount, test: t.isTest }, merchant);
  return { name, merchantId, terminalId: t.id };
}

test('a terminal whose invoices are all NEW shows "no data" for its rates, not a red 0 %', async ({
  page,
  signInAs,
  baseURL,
}, testInfo) => {
  const quiet = await quietMerchant(baseURL!);
  await signInAs('admin');
  await page.getByRole('navigation').getByRole('link', { name: 'Monitoring', exact: true }).click();
  const response = page.waitForResponse(
    (r) => r.url().includes('/api/data/v1/terminal?') && r.url().includes(`merchantId=${quiet.merchantId}`),
  );
  await page.getByRole('tab', { name: quiet.name }).click();
  await response;
  const panel = page.getByRole('tabpanel', { name: quiet.name });
  const row = panel.getByTestId(`terminal-row-${quiet.terminalId}`);
  await expect(row.getByText('2 invoices', { exact: true })).toBeVisible();
  await expect(row.getByRole('cell', { name: 'NEW 2', exact: true })).toBeVisible();
  await expect(row.getByRole('cell', { name: 'Success 0, no data', exact: true })).toBeVisible();
  await expect(row.getByRole('cell', { name: 'Canceled 0, no data', exact: true })).toBeVisible();
  await expect(row.getByRole('cell', { name: 'Declined 0, no data', exact: true })).toBeVisible();
  const badge = row.getByTestId('success-percent');
  await expect(badge).toHaveText('no data');
  await expect(badge).toHaveAttribute('data-level', 'none');
  // neutral grey, not the red of a rate below the low threshold
  await expect(badge).not.toHaveCSS('background-color', await filledColor(page, 'red'));
  await expect(row.getByText('0%')).toHaveCount(0);
  // and no chart of a rate that does not exist: the terminal is named as still under way
  await expect(panel.getByTestId(`success-chart-${quiet.terminalId}`)).toHaveCount(0);
  await expect(panel.getByTestId('success-charts-under-way')).toContainText('Quiet UZS Deposit');
  await page.screenshot({ path: testInfo.outputPath('monitoring-no-data-1280.png') });
});
