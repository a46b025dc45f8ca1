import {
  banksResponse,
  formCompleteBody,
  formCompleteResponse,
  formCredentialBody,
  formCredentialResponse,
  formIdParams,
  formInitResponse,
  formStatusResponse,
  formSupportBody,
  formSupportResponse,
} from '../payment-form';
import { routeSpec } from '../route-spec';

/**
 * Addressed by an unguessable form id, no session; every route shares a per-IP rate limit (its 429
 * TOO_MANY_REQUESTS is implied by the surface: errorCodesOf).
 */
const common = {
  api: 'payment-form',
  tags: ['Payment form'],
  access: 'public',
  params: formIdParams,
} as const;

export const paymentFormRouteSpecs = {
  'POST /api/payments/form/:formId/init': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/payments/form/:formId/init',
    operationId: 'initPaymentForm',
    summary: 'Load the payment form',
    description:
      "The invoice as the customer sees it: amount, currency limits, the terminal's payment methods and the time left.",
    responses: { 200: formInitResponse },
    // GONE: the form expired before the payment was final
    errors: ['GONE'],
  }),
  'POST /api/payments/form/:formId/credential': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/payments/form/:formId/credential',
    operationId: 'requestPaymentCredential',
    summary: 'Choose method and amount; get requisites (deposit)',
    description:
      'Deposit: routes the payment to a provider account and returns its requisites (asking again returns the same ones). ' +
      'Withdrawal: stores the chosen method and amount.',
    body: formCredentialBody,
    responses: { 200: formCredentialResponse },
    // NO_ACCOUNT_AVAILABLE: no provider account can take this amount now; CONFLICT: a concurrent change
    errors: ['GONE', 'INVALID_STATE', 'AMOUNT_OUT_OF_RANGE', 'NO_ACCOUNT_AVAILABLE', 'CONFLICT'],
  }),
  'POST /api/payments/form/:formId/complete': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/payments/form/:formId/complete',
    operationId: 'completePayment',
    summary: '"Have paid" (deposit) or payout details (withdrawal)',
    description:
      'Deposit: the customer says they have paid (IN_PROGRESS → PAYED). Withdrawal: takes the payout details and ' +
      'starts the payout (NEW → IN_PROGRESS).',
    body: formCompleteBody.optional(),
    responses: { 200: formCompleteResponse },
    errors: ['GONE', 'INVALID_STATE', 'NO_ACCOUNT_AVAILABLE', 'INSUFFICIENT_BALANCE', 'CONFLICT'],
  }),
  'POST /api/payments/form/:formId/status': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/payments/form/:formId/status',
    operationId: 'getPaymentFormStatus',
    summary: 'Current status (polled)',
    description: 'The form polls it every few seconds while the payment is in progress.',
    responses: { 200: formStatusResponse },
  }),
  'GET /api/payments/form/:formId/banks/sbp': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/payments/form/:formId/banks/sbp',
    operationId: 'listPaymentFormBanks',
    summary: 'Banks for SBP withdrawals',
    description:
      "The banks of the form's payment method country (and those with no country), for the customer to pick.",
    responses: { 200: banksResponse },
  }),
  'POST /api/payments/form/:formId/support': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/payments/form/:formId/support',
    operationId: 'openPaymentSupportTicket',
    summary: 'Open a support ticket for this payment',
    description: 'One open ticket per payment: another request while one is open is refused.',
    body: formSupportBody.optional(),
    responses: { 200: formSupportResponse },
    // CONFLICT: a support request for this payment is already open
    errors: ['CONFLICT'],
  }),
};
