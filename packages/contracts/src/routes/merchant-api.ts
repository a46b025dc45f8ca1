import {
  createInvoiceBody,
  createInvoiceResponse,
  merchantAuthHeaders,
  merchantInvoiceParams,
  merchantInvoiceResponse,
} from '../merchant-api';
import { routeSpec } from '../route-spec';

/** An invoice as the merchant API returns it, for the document's examples. */
const exampleInvoice = (status: 'NEW' | 'CANCELED', statusDate: string) => ({
  data: {
    invoiceId: '0b7e4f5a-2c31-4d8e-a6f9-13c5e7d2b840',
    merchantInvoiceId: 'order-100245',
    providerInvoiceId: null,
    terminalId: '6f1c2a4e-8b3d-4c7a-9e21-5d0b7f3a9c14',
    flowType: 'DEPOSIT',
    status,
    amount: 15_000_000,
    fee: 300_000,
    currency: 'UZS',
    paymentMethod: 'HUMOUZS',
    formUrl: 'https://pay.example.com/payment/Qm9uLXZveWFnZS1wYXltZW50LWZvcm0x',
    createdAt: '2025-03-14T10:00:00.000Z',
    statusDate,
    expiresAt: '2025-03-14T10:30:00.000Z',
  },
});

const common = {
  api: 'merchant',
  tags: ['Merchant API'],
  access: 'merchant',
  headers: merchantAuthHeaders,
} as const;

export const merchantApiRouteSpecs = {
  'POST /api/merchant/v1/invoices': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/merchant/v1/invoices',
    operationId: 'createInvoice',
    summary: 'Create a deposit or withdrawal invoice',
    description:
      'Returns the payment form URL to send the customer to. Amounts are integers in minor units. ' +
      'An Idempotency-Key header replays the first response for 24 h.',
    body: createInvoiceBody,
    responses: { 201: createInvoiceResponse },
    // NOT_FOUND: the terminal is unknown or another merchant's; CONFLICT: the first request with the same
    // Idempotency-Key is still being processed
    errors: ['NOT_FOUND', 'AMOUNT_OUT_OF_RANGE', 'DUPLICATE', 'IDEMPOTENCY_CONFLICT', 'CONFLICT'],
    examples: {
      request: {
        terminalId: '6f1c2a4e-8b3d-4c7a-9e21-5d0b7f3a9c14',
        flowType: 'DEPOSIT',
        amount: 15_000_000,
        currency: 'UZS',
        merchantInvoiceId: 'order-100245',
        customer: { externalId: 'customer-8812', firstName: 'Aziz', lastName: 'Karimov' },
        successUrl: 'https://shop.example.com/pay/success?order=100245',
        cancelUrl: 'https://shop.example.com/pay/cancel?order=100245',
        errorUrl: 'https://shop.example.com/pay/error?order=100245',
        callbackUrl: 'https://shop.example.com/hooks/paydesk',
        paymentMethod: 'HUMOUZS',
        expiresInSeconds: 1800,
      },
      response: {
        data: {
          invoiceId: '0b7e4f5a-2c31-4d8e-a6f9-13c5e7d2b840',
          formId: 'Qm9uLXZveWFnZS1wYXltZW50LWZvcm0x',
          formUrl: 'https://pay.example.com/payment/Qm9uLXZveWFnZS1wYXltZW50LWZvcm0x',
          status: 'NEW',
          expiresAt: '2025-03-14T10:30:00.000Z',
        },
      },
    },
  }),
  'GET /api/merchant/v1/invoices/:invoiceId': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/merchant/v1/invoices/:invoiceId',
    operationId: 'getMerchantInvoice',
    summary: 'Read an invoice',
    description: "One of the merchant's own invoices, with its current status and payment form URL.",
    params: merchantInvoiceParams,
    responses: { 200: merchantInvoiceResponse },
    examples: { response: exampleInvoice('NEW', '2025-03-14T10:00:00.000Z') },
  }),
  'POST /api/merchant/v1/invoices/:invoiceId/cancel': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/merchant/v1/invoices/:invoiceId/cancel',
    operationId: 'cancelMerchantInvoice',
    summary: 'Cancel an invoice',
    description: 'Deposits can be canceled until DONE; withdrawals only while NEW.',
    params: merchantInvoiceParams,
    responses: { 200: merchantInvoiceResponse },
    // CONFLICT: a concurrent change to the same records (the transaction is rolled back; retry)
    errors: ['INVALID_STATE', 'CONFLICT'],
    examples: { response: exampleInvoice('CANCELED', '2025-03-14T10:12:31.000Z') },
  }),
};
