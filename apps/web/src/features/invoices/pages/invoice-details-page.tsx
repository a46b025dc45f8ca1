import { Alert, Anchor, Grid, Paper, Stack } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { useDocumentTitle } from '../../../components/page-title';
import { SectionLoader } from '../../../components/full-page-loader';
import { isApiError } from '../../../lib/api';
import { PAGES } from '../../../lib/pages';
import { useInvoice } from '../api/invoice';
import { HistorySections, StatusHistory } from '../components/history-sections';
import { PendingApprovalBanner } from '../components/pending-approval-banner';
import { TransactionCard } from '../components/transaction-card';

export default function InvoiceDetailsPage() {
  const { id = '' } = useParams();
  const { data: invoice, isPending, isError, error } = useInvoice(id);
  // the card's title is the page's heading: one "Transaction", not a page title above a card of the same name
  useDocumentTitle('Transaction');

  return (
    <>
      <Anchor
        component={Link}
        to={PAGES.Invoices}
        size="sm"
        mb="xs"
        display="inline-flex"
        style={{ alignItems: 'center', gap: 4 }}
      >
        <IconArrowLeft size={14} aria-hidden /> Transactions
      </Anchor>
      {isPending ? (
        <SectionLoader label="Loading transaction" />
      ) : isError ? (
        // a malformed id (400) and an unknown or foreign one (404) are the same thing to the reader: no such invoice
        isApiError(error) && (error.status === 404 || error.status === 400) ? (
          <Alert color="gray" title="Transaction not found">
            This invoice doesn&apos;t exist. Check the link, or find the transaction in the list.
          </Alert>
        ) : (
          <Alert color="red" title="Could not load the transaction">
            {error.message}
          </Alert>
        )
      ) : (
        <Stack gap="lg">
          <PendingApprovalBanner invoiceId={invoice.invoiceId} />
          <Grid gap="lg">
            <Grid.Col span={{ base: 12, lg: 7 }}>
              <TransactionCard invoice={invoice} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 5 }}>
              <Paper withBorder radius="md" p="lg">
                <StatusHistory invoiceId={invoice.invoiceId} />
              </Paper>
            </Grid.Col>
          </Grid>
          {/* below the card and across the page: the event and transaction tables get the width */}
          <HistorySections invoice={invoice} />
        </Stack>
      )}
    </>
  );
}
