import { renderToStaticMarkup } from 'react-dom/server';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Me } from '@paydesk/contracts/auth';
import type { InvoiceDetails } from '@paydesk/contracts/invoices';
import { REVEAL_CAPTION } from '../../../components/revealable-number';
import { CurrentUserContext } from '../../../lib/session';
import { TransactionCard } from './transaction-card';

const MASKED = '986012******9015';

const invoice = (over: Partial<InvoiceDetails> = {}): InvoiceDetails => ({
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
  isTestProcessing: false,
  customer: null,
  terminal: { id: '3b47e7ac-0a62-4e1d-ab53-96fd817ef099', name: 'T' },
  paymentMethod: null,
  account: { value: MASKED },
  credentials: null,
  processing: null,
  ...over,
});

const me = (permissions: string[], merchantId: string | null = null): Me => ({
  id: '00000000-0000-4000-8000-000000000001',
  username: 'malika',
  permissions,
  personal: { firstName: 'Malika', lastName: 'Rahimova' },
  merchantId,
  scope: merchantId ? 'merchant' : 'platform',
  role: { id: 1, name: 'Role' },
  mustChangePassword: false,
  mustSetUpTwoFactor: false,
  twoFactor: { enabled: false, required: false },
});

const render = (user: Me, inv: InvoiceDetails) =>
  renderToStaticMarkup(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <CurrentUserContext value={user}>
            <TransactionCard invoice={inv} />
          </CurrentUserContext>
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );

describe('TransactionCard: the requisite', () => {
  it('is shown masked, with "Show full number" for a holder of invoice.credentials.read; the full number only on click', () => {
    const html = render(me(['invoice.credentials.read']), invoice());
    expect(html).toContain('Credentials');
    expect(html).toContain(MASKED);
    expect(html).toMatch(/<button[^>]*aria-label="Show full number"/);
    // nothing revealed before the click
    expect(html).not.toContain(REVEAL_CAPTION);
    expect(html).not.toContain('Hide');
  });

  it('an invoice with no requisite yet shows a dash and nothing to reveal', () => {
    const html = render(me(['invoice.credentials.read']), invoice({ account: null }));
    expect(html).toContain('Credentials');
    expect(html).not.toContain('Show full number');
  });

  it('is not shown at all without the permission (merchant users), even if an answer carried one', () => {
    const html = render(me(['merchant.read'], '3b47e7ac-0a62-4e1d-ab53-96fd817ef000'), invoice());
    expect(html).not.toContain('Credentials');
    expect(html).not.toContain(MASKED);
    expect(html).not.toContain('Show full number');
  });
});
