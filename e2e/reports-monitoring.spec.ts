import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, signOut, test } from './support/auth';
import { createInvoice } from './support/merchant-api';

/**
 * Monitoring, Reports and the balance tile with its Settlement dialog. Provider and pool reports and settlements are
 * platform work (docs/architecture.md, "Who is who"): platform staff run them on Demo Merchant, the merchant picker's
 * first entry.
 */

type Stat = {
  terminalId: string;
  name: string;
  enable: boolean;
  total: number;
  newCount: number;
  successCount: number;
  successPercent: number | null;
  cancelCount: number;
  cancelPercent: number | null;
  declinedCount: number;
  declinedPercent: number | null;
};

/** A share of the finished invoices (DONE, CANCELED, DECLINED); null, shown as "no data", while none has finished. */
const pct = (part: number, finished: number) => (finished ? Math.round((part * 1000) / finished) / 10 : null);
const shown = (percent: number | null) => (percent === null ? 'no data' : `${percent}%`);

/** "1,234,567.89 UZS" → 123456789 (minor units, dimension 2), without float math. */
function minorOf(text: string): number {
  const m = /(-?[\d,]+)\.(\d{2})/.exec(text);
  if (!m) throw new Error(`no amount in "${text}"`);
  return Number(`${m[1]!.replace(/,/g, '')}${m[2]}`);
}

async function pick(page: Page, label: string, option: string, scope = page.locator('body')) {
  await scope.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('ops sees on Monitoring that the books reconcile; a merchant owner does not see the platform ledger', async ({
  page,
  signInAs,
}) => {
  await signInAs('ops', '/monitoring');
  await expect(page.getByTestId('ledger-health')).toContainText(
    'every balance equals its entries and every book sums to zero',
  );
  await signOut(page);
  await signInAs('owner', '/monitoring');
  await expect(page.getByRole('heading', { name: 'Monitoring', level: 1 })).toBeVisible();
  await expect(page.getByTestId('ledger-health')).toHaveCount(0);
});

test('monitoring shows every terminal with counts and percents that match the period invoices', async ({
  page,
  signInAs,
  baseURL,
}) => {
  // three fresh invoices on the test deposit terminal: they are NEW until the customer acts
  for (const amount of [1_500_000, 2_500_000, 3_500_000])
    await createInvoice(baseURL!, { flowType: 'DEPOSIT', amount });
  await signInAs('owner');

  const response = page.waitForResponse(
    (r) => r.url().includes('/api/data/v1/terminal?') && r.url().includes('minutes=60'),
  );
  await page.getByRole('navigation').getByRole('link', { name: 'Monitoring', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Monitoring', level: 1 })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Demo Merchant' })).toHaveAttribute('aria-selected', 'true');
  const stats = (await (await response).json()).data as Stat[];
  // every terminal of the merchant (other specs may have added some)
  const terminals = (await (await page.request.get('/api/v1/terminal')).json()).data as unknown[];
  expect(stats.length).toBe(terminals.length);
  expect(stats.length).toBeGreaterThanOrEqual(6);

  const table = page.getByRole('table', { name: 'Terminal statistics' });
  await expect(table.getByRole('row')).toHaveCount(stats.length + 1);
  const testTerminal = stats.find((s) => s.name === 'Test UZS Deposit')!;
  expect(testTerminal.newCount).toBeGreaterThanOrEqual(3);

  for (const s of stats) {
    // the server's percents agree with a count done here
    const finished = s.successCount + s.cancelCount + s.declinedCount;
    expect(s.successPercent).toBe(pct(s.successCount, finished));
    expect(s.cancelPercent).toBe(pct(s.cancelCount, finished));
    expect(s.declinedPercent).toBe(pct(s.declinedCount, finished));
    expect(s.newCount + s.successCount + s.cancelCount + s.declinedCount).toBeLessThanOrEqual(s.total);

    const row = table.getByRole('row').filter({ has: page.getByText(s.name, { exact: true }) });
    await expect(row.getByText(s.enable ? 'on' : 'off', { exact: true })).toBeVisible();
    if (s.total === 0) {
      await expect(row.getByText('no data')).toBeVisible();
      continue;
    }
    await expect(row.getByRole('cell', { name: `NEW ${s.newCount}`, exact: true })).toBeVisible();
    await expect(
      row.getByRole('cell', { name: `Success ${s.successCount}, ${shown(s.successPercent)}`, exact: true }),
    ).toBeVisible();
    await expect(
      row.getByRole('cell', { name: `Canceled ${s.cancelCount}, ${shown(s.cancelPercent)}`, exact: true }),
    ).toBeVisible();
    await expect(
      row.getByRole('cell', { name: `Declined ${s.declinedCount}, ${shown(s.declinedPercent)}`, exact: true }),
    ).toBeVisible();
    // coloured against the seeded thresholds (60 low, 85 high); neutral while nothing has finished
    const level =
      s.successPercent === null ? 'none' : s.successPercent < 60 ? 'low' : s.successPercent >= 85 ? 'high' : 'mid';
    await expect(row.getByTestId('success-percent')).toHaveAttribute('data-level', level);
    // a chart where there is a rate to draw
    await expect(page.getByRole('figure', { name: new RegExp(`^Success rate of ${s.name} per`) })).toHaveCount(
      s.successPercent === null ? 0 : 1,
    );
  }

  // another period asks the server again
  const threeHours = page.waitForResponse(
    (r) => r.url().includes('/api/data/v1/terminal?') && r.url().includes('minutes=180'),
  );
  await page.getByText('3 h', { exact: true }).click();
  const wider = (await (await threeHours).json()).data as Stat[];
  expect(wider.find((s) => s.name === 'Test UZS Deposit')!.total).toBeGreaterThanOrEqual(testTerminal.total);
});

test('each report downloads a non-empty CSV', async ({ page, signInAs }) => {
  await signInAs('ops');
  await expect(page.getByRole('banner').getByRole('combobox', { name: 'Merchant' })).toHaveValue('Demo Merchant');
  await page.getByRole('navigation').getByRole('link', { name: 'Reports', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();

  const cards: {
    title: string;
    prefix: string;
    fill?: (card: ReturnType<Page['getByRole']>) => Promise<void>;
    minRows: number;
  }[] = [
    { title: 'Transactions', prefix: 'report-invoice-', minRows: 1 },
    {
      title: 'Balance',
      prefix: 'report-balance-',
      minRows: 7,
      fill: (card) => pick(page, 'Currency', 'UZS — Uzbekistani sum', card),
    },
    {
      title: 'Provider',
      prefix: 'report-provider-',
      minRows: 1,
      fill: async (card) => {
        await pick(page, 'Currency', 'UZS', card);
        await pick(page, 'Provider', 'SilkPay Processing', card);
      },
    },
    {
      title: 'Terminal Pool Balance',
      prefix: 'report-pool-balance-',
      minRows: 2,
      fill: (card) => pick(page, 'Terminal pool', 'UZS Main Pool', card),
    },
  ];
  for (const c of cards) {
    const card = page.getByRole('region', { name: c.title, exact: true });
    await expect(card.getByRole('textbox', { name: 'Date From' })).toHaveValue(/^\d{4}-\d{2}-\d{2}$/);
    if (c.fill) await c.fill(card);
    const download = page.waitForEvent('download');
    await card.getByRole('button', { name: 'Get report' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(
      new RegExp(`^${c.prefix}\\d{4}-\\d{2}-\\d{2}_\\d{4}-\\d{2}-\\d{2}\\.csv$`),
    );
    const text = fs.readFileSync((await file.path())!, 'utf8');
    const lines = text.split('\r\n').filter(Boolean);
    expect(lines.length, `${c.title}: ${text.slice(0, 200)}`).toBeGreaterThan(c.minRows);
    await expect(card.getByRole('button', { name: 'Get report' })).toBeEnabled();
  }
});

test('report dates are required and cannot be crossed', async ({ page, signInAs }) => {
  await signInAs('owner', '/reports');
  const card = page.getByRole('region', { name: 'Transactions', exact: true });
  const from = card.getByRole('textbox', { name: 'Date From' });
  const to = card.getByRole('textbox', { name: 'Date To' });
  await from.clear();
  await from.blur();
  await card.getByRole('button', { name: 'Get report' }).click();
  await expect(card.getByText('Date From is required')).toBeVisible();

  // from = the 15th of this month: in Date To's calendar the 14th is disabled (to's min is from)
  const now = new Date();
  const month = now.toLocaleString('en', { month: 'long', timeZone: 'UTC' });
  const ym = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
  // Date To first: it defaults to today, and Date From may not pass it (before the 15th, the 15th would be refused)
  await to.fill(`${ym}-28`);
  await to.blur();
  await expect(to).toHaveValue(`${ym}-28`);
  await from.fill(`${ym}-15`);
  await from.blur();
  await expect(from).toHaveValue(`${ym}-15`);
  await expect(card.getByText('Date From is required')).toBeHidden();
  await to.click();
  await expect(
    page.getByRole('button', { name: `14 ${month} ${now.getUTCFullYear()}`, exact: true }).last(),
  ).toHaveAttribute('data-disabled', 'true');
  await expect(
    page.getByRole('button', { name: `16 ${month} ${now.getUTCFullYear()}`, exact: true }).last(),
  ).not.toHaveAttribute('data-disabled', 'true');
});

test('owner runs only the merchant reports', async ({ page, signInAs }) => {
  await signInAs('owner', '/reports');
  await expect(page.getByRole('region', { name: 'Transactions', exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Balance', exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Provider', exact: true })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Terminal Pool Balance', exact: true })).toHaveCount(0);
  // a merchant records no settlement: that is the platform paying out
  await pick(page, 'Terminal', 'UZS Deposit', page.getByRole('banner'));
  await expect(page.getByTestId('balance-card-balance').getByTestId('balance-amount')).toHaveText(/UZS$/);
  await expect(page.getByRole('button', { name: 'Settlement' })).toHaveCount(0);
});

test('settlement lowers the balance shown on the tile', async ({ page, signInAs }) => {
  await signInAs('admin', '/reports');
  await pick(page, 'Terminal', 'UZS Deposit', page.getByRole('banner'));

  const tile = page.getByTestId('balance-card-balance');
  const amount = tile.getByTestId('balance-amount');
  await expect(amount).toHaveText(/UZS$/);
  const before = minorOf((await amount.textContent())!);
  expect(before).toBeGreaterThan(100_000);

  await tile.getByRole('button', { name: 'Settlement' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settlement' });
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog.getByText('Base amount is required')).toBeVisible();
  await expect(dialog.getByText('Settlement amount is required')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Base amount (UZS)' }).fill('abc');
  await expect(dialog.getByText('Base amount must be a number')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Base amount (UZS)' }).fill('1000.555');
  await expect(dialog.getByText('Base amount must have at most 2 decimals')).toBeVisible();

  await dialog.getByRole('textbox', { name: 'Base amount (UZS)' }).fill('1000.5');
  await dialog.getByRole('textbox', { name: 'Settlement amount (USDT)' }).fill('0.08');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Successfully created' })).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect.poll(async () => minorOf((await amount.textContent())!)).toBe(before - 100_050);

  // more than there is: the server's message as an error toast, nothing changes
  await tile.getByRole('button', { name: 'Settlement' }).click();
  await dialog.getByRole('textbox', { name: 'Base amount (UZS)' }).fill('999999999999');
  await dialog.getByRole('textbox', { name: 'Settlement amount (USDT)' }).fill('1');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Settlement exceeds the available balance' })).toBeVisible();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(minorOf((await amount.textContent())!)).toBe(before - 100_050);
});
