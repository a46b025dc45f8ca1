import { renderToStaticMarkup } from 'react-dom/server';
import { Badge, MantineProvider, Table } from '@mantine/core';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Invoice } from '@paydesk/contracts/invoices';
import { InvoiceTable } from './invoice-table';

const invoice = (over: Partial<Invoice> = {}): Invoice => ({
  invoiceId: '96fd817e-0a62-4e1d-ab53-3b47e7acf099',
  merchantInvoiceId: 'ORD-100400',
  providerInvoiceId: null,
  createdDate: '2026-11-24T06:34:15.000Z',
  amount: 66_000_000,
  fee: 0,
  currency: { id: 1, code: 'UZS', name: 'Uzbek sum', dimension: 2 },
  flowType: { code: 'WITHDRAWAL' },
  invoiceStatus: { id: 6, code: 'IN_PROGRESS', value: 'In progress' },
  statusDate: '2026-11-24T06:35:00.000Z',
  isTestProcessing: true,
  customer: null,
  terminal: { id: '3b47e7ac-0a62-4e1d-ab53-96fd817ef099', name: 'T' },
  paymentMethod: null,
  account: null,
  credentials: null,
  ...over,
});

const render = (rows: Invoice[]) =>
  renderToStaticMarkup(
    <MantineProvider>
      <MemoryRouter>
        <InvoiceTable rows={rows} />
      </MemoryRouter>
    </MantineProvider>,
  );

/** The rows are plain elements dressed as Mantine's Table cells and Badges (invoice-table.tsx): what they must carry. */
describe('InvoiceTable rows', () => {
  it('carry Table.Tr/Td classes and attributes, the link, dates, badges and amount', () => {
    const html = render([invoice()]);
    const row = /<tr [^>]*data-testid="invoice-row"[^>]*>/.exec(html)![0];
    expect(row).toContain(Table.classes.tr);
    expect(row).toContain('data-with-row-border');
    expect(row).toContain('data-hover');
    expect(html.match(new RegExp(`<td class="${Table.classes.td}[ "]`, 'g'))).toHaveLength(5);
    expect(html).toContain('href="/invoices/96fd817e-0a62-4e1d-ab53-3b47e7acf099"');
    expect(html).toContain('96FD817E-0A62-4E1D-AB53-3B47E7ACF099');
    expect(html).toContain('mantine-focus-auto');
    expect(html).toContain('24 Nov 2026 06:34:15');
    expect(html).toContain('660,000.00 UZS');
    // flow (outline grey, lower case), Test (filled orange), status (light, the status's colour)
    const badges = [
      ...html.matchAll(new RegExp(`<div class="${Badge.classes.root}" style="([^"]*)"><span[^>]*>([^<]*)`, 'g')),
    ];
    expect(badges.map((b) => b[2])).toEqual(['withdrawal', 'Test', 'In progress']);
    expect(badges[0]![1]).toContain('--badge-color:var(--mantine-color-gray-outline)');
    expect(badges[0]![1]).toContain('text-transform:lowercase');
    expect(badges[1]![1]).toContain('--badge-bg:var(--mantine-color-orange-filled)');
    expect(badges[2]![1]).toContain('--badge-bg:var(--mantine-color-blue-light)');
    expect(badges[2]![1]).toContain('--badge-color:var(--mantine-color-blue-light-color)');
  });

  it('shows no Test badge for live invoices', () => {
    expect(render([invoice({ isTestProcessing: false })])).not.toContain('>Test<');
  });
});
