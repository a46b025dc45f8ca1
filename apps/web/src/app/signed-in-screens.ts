export { AppLayout, prefetchLayout } from './layout/app-layout';
export { default as InvoicesPage, prefetch as prefetchInvoices } from '../features/invoices/pages/invoices-page';
