import { Alert, Anchor, Grid, Paper, Stack } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { PageTitle } from '../../../components/page-title';
import { SectionLoader } from '../../../components/full-page-loader';
import { isApiError } from '../../../lib/api';
import { ROUTES } from '../../../lib/routes';
import { useInvoice } from '../api/invoice';
import { HistorySections, StatusHistory } from '../components/history-sections';
import { TransactionCard } from '../components/transaction-card';

export default function InvoiceDetailsPage() {
  const { id = '' } = useParams();
  const { data: invoice, isPending, isError, error } = useInvoice(id);

  return (
    <>
      <Anchor
        component={Link}
        to={ROUTES.Invoices}
        size="sm"
        mb="xs"
        display="inline-flex"
        style={{ alignItems: 'center', gap: 4 }}
      >
        <IconArrowLeft size={14} aria-hidden /> Transactions
      </Anchor>
      <PageTitle title="Transaction" />
      {isPending ? (
        <SectionLoader label="Loading transaction" />
      ) : isError ? (
        <Alert
          color="red"
          title={
            isApiError(error) && (error.status === 404 || error.status === 400)
              ? 'Transaction not found'
              : 'Could not load the transaction'
          }
        >
          {error.message}
        </Alert>
      ) : (
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, lg: 7 }}>
            <TransactionCard invoice={invoice} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 5 }}>
            <Stack gap="lg">
              <Paper withBorder radius="md" p="lg">
                <StatusHistory invoiceId={invoice.invoiceId} />
              </Paper>
              <HistorySections invoice={invoice} />
            </Stack>
          </Grid.Col>
        </Grid>
      )}
    </>
  );
}
