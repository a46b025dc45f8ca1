import { memo } from 'react';
import { Box, Button, Group, Loader, Text } from '@mantine/core';
import { actionErrorMessage, type QueryParams } from '../../../lib/api';
import { useInvoiceCount } from '../api/invoice-list';

const transactionsCount = (n: number) => `${n.toLocaleString('en')} ${n === 1 ? 'transaction' : 'transactions'}`;

/**
 * "Count exactly", next to a capped total: the exact number of transactions the filters match, counted on request
 * (it reads every match), then kept for these filters. What it says is announced (aria-live).
 */
export const ExactCount = memo(function ExactCount({ filters }: { filters: QueryParams }) {
  const { data, isFetching, error, refetch } = useInvoiceCount(filters);
  return (
    <Box component="span" aria-live="polite" style={{ display: 'inline-flex' }}>
      {isFetching ? (
        <Group gap={6} wrap="nowrap">
          <Loader size={14} aria-hidden />
          <Text size="sm" c="dimmed">
            Counting…
          </Text>
        </Group>
      ) : data ? (
        <Text size="sm" fw={500} data-testid="invoice-exact-count">
          {transactionsCount(data.data.total)}
        </Text>
      ) : (
        <Group gap="xs" wrap="wrap">
          <Button variant="subtle" size="compact-sm" onClick={() => void refetch()}>
            Count exactly
          </Button>
          {error && (
            <Text size="sm" c="red">
              {actionErrorMessage(error, 'Could not count the transactions. Try again.')}
            </Text>
          )}
        </Group>
      )}
    </Box>
  );
});
