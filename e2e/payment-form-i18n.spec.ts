import type { Page } from '@playwright/test';
import { expect, test } from './support/auth';
import { createInvoice, formPath } from './support/merchant-api';

// The payment form on a phone, in the customer's language: SVG flags, card numbers that keep their
// groups whole, the SBP bank list of the form's country, and server errors in Russian.
test.describe.configure({ timeout: 60_000 });

const main = (page: Page) => page.getByRole('main');
const heading = (page: Page) => main(page).getByRole('heading', { level: 1 });

async function openDepositRequisites(page: Page, baseURL: string, lang: 'ru' | 'uz') {
  const invoice = await createInvoice(baseURL, { flowType: 'DEPOSIT', amount: 1_000_000, canChangeAmount: true });
  await page.goto(formPath(invoice, lang));
  await page.getByRole('button', { name: /Humo/ }).click();
  await main(page)
    .getByRole('button', { name: lang === 'ru' ? /^Пополнить на/ : /^To‘ldirish/ })
    .click();
  const requisites = page.getByRole('region', { name: lang === 'ru' ? 'Реквизиты' : /rekvizit/i });
  await expect(requisites).toBeVisible();
  return requisites;
}

for (const width of [390, 320]) {
  test(`at ${width} px the flag is an SVG image and the card number keeps each group of four on one line`, async ({
    page,
    baseURL,
  }, testInfo) => {
    await page.setViewportSize({ width, height: 844 });
    const requisites = await openDepositRequisites(page, baseURL!, 'ru');

    const flag = requisites.getByRole('img', { name: 'Узбекистан' });
    await expect(flag).toBeVisible();
    expect(await flag.evaluate((el) => el.tagName)).toBe('IMG');
    await expect(flag).toHaveAttribute('src', /^data:image\/svg\+xml,/);
    expect(await flag.evaluate((el) => /\p{Regional_Indicator}/u.test(el.textContent ?? ''))).toBe(false);

    const groups = requisites.getByText(/^\d{1,4}$/);
    await expect(groups).toHaveCount(4);
    const lineHeight = await groups.first().evaluate((el) => {
      const s = getComputedStyle(el);
      return s.lineHeight === 'normal' ? parseFloat(s.fontSize) * 1.25 : parseFloat(s.lineHeight);
    });
    const boxes = await Promise.all((await groups.all()).map((g) => g.boundingBox()));
    for (const box of boxes) {
      expect(box).not.toBeNull();
      // a group split over two lines would be about twice as tall (inline box of two line boxes)
      expect(box!.height).toBeLessThan(lineHeight * 1.5);
    }
    if (width === 390) {
      // the 3 + 1 wrap: at a common phone width the whole number stays on one line
      expect(new Set(boxes.map((b) => Math.round(b!.y))).size).toBe(1);
    }
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth).toBeLessThanOrEqual(width);
    if (width === 390) {
      await page.screenshot({ path: testInfo.outputPath('deposit-requisites-ru-390.png'), fullPage: true });
    }
  });
}

test('uz at 390 px: the requisites card shows an SVG flag and reads in Uzbek', async ({ page, baseURL }, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const requisites = await openDepositRequisites(page, baseURL!, 'uz');
  const flag = requisites.getByRole('img', { name: /O.zbekiston|Uzbekistan/ });
  await expect(flag).toHaveAttribute('src', /^data:image\/svg\+xml,/);
  await page.screenshot({ path: testInfo.outputPath('deposit-requisites-uz-390.png'), fullPage: true });
});

test('a RUB SBP withdrawal lists Russian banks, found by Cyrillic and by Latin names', async ({
  page,
  baseURL,
}, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const invoice = await createInvoice(baseURL!, {
    flowType: 'WITHDRAWAL',
    currency: 'RUB',
    test: false,
    amount: 500_000,
    paymentMethod: 'SBPRUB',
  });
  await page.goto(formPath(invoice, 'ru'));
  await expect(heading(page)).toHaveText(/^Перевод на ваш счёт 5\s000,00\sRUB$/);

  const banks = page.getByRole('group', { name: 'Банк' });
  const radios = banks.getByRole('radio');
  await expect(radios.first()).toHaveAccessibleName(/^Сбербанк/);
  for (const name of ['Т-Банк', 'ВТБ', 'Альфа-Банк', 'Газпромбанк', 'Райффайзенбанк']) {
    await expect(banks.getByRole('radio', { name: new RegExp(`^${name}`) })).toHaveCount(1);
  }
  // the Uzbek banks belong to UZS forms
  await expect(banks.getByRole('radio', { name: /Kapitalbank|Hamkorbank|Agrobank/ })).toHaveCount(0);
  await expect(banks.getByText('Sberbank')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('sbp-banks-ru-390.png'), fullPage: true });

  const search = banks.getByRole('searchbox');
  await search.fill('Сбер');
  await expect(radios).toHaveCount(1);
  await expect(radios.first()).toHaveAccessibleName(/Сбербанк/);
  await search.fill('sber');
  await expect(radios).toHaveCount(1);
  await expect(radios.first()).toHaveAccessibleName(/Сбербанк/);
  await search.fill('тинькофф');
  await expect(radios).toHaveCount(1);
  await expect(radios.first()).toHaveAccessibleName(/Т-Банк/);
  await search.fill('Kapitalbank');
  await expect(main(page).getByText('Ничего не найдено')).toBeVisible();

  await search.fill('sber');
  await radios.first().check();
  await page.getByRole('textbox', { name: 'Номер телефона' }).pressSequentially('9991234567');
  await main(page)
    .getByRole('button', { name: /^Вывести/ })
    .click();
  await expect(main(page).getByText(/^\+5\s000,00\sRUB$/)).toBeVisible();
});

test('a server refusal reaches a Russian customer in Russian', async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  // a fixed 500.00 RUB payment: within the currency's limits, below SberbankXCountry's minimum of 1,000.00
  const invoice = await createInvoice(baseURL!, {
    flowType: 'DEPOSIT',
    currency: 'RUB',
    test: false,
    amount: 50_000,
    canChangeAmount: false,
  });
  await page.goto(formPath(invoice, 'ru'));
  await expect(heading(page)).toHaveText('Выберите способ оплаты');
  const answer = page.waitForResponse((r) => r.url().endsWith('/credential'));
  await page.getByRole('button', { name: /SberbankXCountry/ }).click();
  const res = await answer;
  expect(res.status()).toBe(400);
  expect(((await res.json()) as { error: { code: string } }).error.code).toBe('AMOUNT_OUT_OF_RANGE');

  await expect(heading(page)).toHaveText('Ошибка');
  await expect(main(page).getByRole('alert')).toHaveText(
    'Сумма вне лимитов этого способа оплаты. Выберите другой способ или сумму.',
  );
  const text = await main(page).innerText();
  expect(text).not.toMatch(/outside the limits|Amount \d+/);
});
