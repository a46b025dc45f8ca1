import { routeSpec } from '../route-spec';
import { balanceReportQuery, invoiceReportQuery, poolBalanceReportQuery, providerReportQuery } from '../reports';

const common = {
  api: 'back-office',
  tags: ['Reports'],
  method: 'GET',
} as const;

/** Routes of the reports module (see route-spec.ts): every one is a CSV download. */
export const reportRouteSpecs = {
  'GET /api/v1/report/invoice': routeSpec({
    ...common,
    path: '/api/v1/report/invoice',
    operationId: 'exportInvoiceReportCsv',
    summary: 'Download the invoice report (CSV)',
    description:
      'One row per invoice created in the period (UTC days, both ends included), optionally of one terminal, oldest first.',
    access: { all: ['merchant.read.report', 'report.read.invoice'] },
    query: invoiceReportQuery,
    responses: { 200: { file: 'text/csv', description: 'The invoice report, one invoice per row' } },
  }),
  'GET /api/v1/report/balance': routeSpec({
    ...common,
    path: '/api/v1/report/balance',
    operationId: 'exportBalanceReportCsv',
    summary: 'Download the balance report (CSV)',
    description:
      "Per day of the period, from the merchant's live ledger in one currency (optionally one terminal): opening balance, deposits, withdrawals, fees, settlements and closing balance.",
    access: { all: ['merchant.read.report', 'report.read.balance'] },
    query: balanceReportQuery,
    responses: { 200: { file: 'text/csv', description: 'The balance report, one day per row' } },
  }),
  'GET /api/v1/report/provider': routeSpec({
    ...common,
    path: '/api/v1/report/provider',
    operationId: 'exportProviderReportCsv',
    summary: 'Download the provider report (CSV)',
    description:
      "Per account of the provider in the currency: count and sum of the merchant's deposits and withdrawals that became DONE in the period.",
    access: { all: ['merchant.read.report', 'report.read.provider'] },
    query: providerReportQuery,
    responses: { 200: { file: 'text/csv', description: 'The provider report, one provider account per row' } },
  }),
  'GET /api/v1/report/pool/balance': routeSpec({
    ...common,
    path: '/api/v1/report/pool/balance',
    operationId: 'exportPoolBalanceReportCsv',
    summary: 'Download the terminal pool balance report (CSV)',
    description:
      "Per terminal of one of the merchant's pools: sums of the deposits and withdrawals that became DONE in the period, and the net.",
    access: { all: ['merchant.read.report', 'report.read.pool.balance'] },
    query: poolBalanceReportQuery,
    responses: { 200: { file: 'text/csv', description: 'The pool balance report, one terminal per row' } },
  }),
};
