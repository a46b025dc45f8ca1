import { memo } from 'react';
import { Badge, Group, Stack, Table, Text } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { formatDateLong } from '@paydesk/contracts/dates';
import type { Invoice } from '@paydesk/contracts/invoices';
import { formatMoneyEn } from '../../../lib/format';
import { ROUTES } from '../../../lib/routes';
import { StatusBadge, UNCLIPPED_BADGE } from './status-badge';

/**
 * Rows of SPEC §2: id upper case, dates in the long format, flow and Test badges, status badge, amount. Memoised:
 * the list's other updates (search text, loading state) do not rebuild the rows.
 */
export const InvoiceTable = memo(function InvoiceTable({ rows }: { rows: Invoice[] }) {
  const navigate = useNavigate();
  return (
    // narrower screens scroll the table inside its card (scrollbar shown) rather than squeeze badges and amounts
    <Table.ScrollContainer minWidth={820} scrollAreaProps={{ type: 'auto' }}>
      <Table highlightOnHover verticalSpacing="sm" aria-label="Transactions">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Invoice ID</Table.Th>
            <Table.Th>Created / Status date (UTC)</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th ta="right">Amount</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((inv) => (
            <Table.Tr
              key={inv.invoiceId}
              style={{ cursor: 'pointer' }}
              data-testid="invoice-row"
              onClick={(e) => {
                // the id link handles its own clicks (and middle/ctrl clicks)
                if ((e.target as HTMLElement).closest('a')) return;
                navigate(ROUTES.InvoiceDetails(inv.invoiceId));
              }}
            >
              <Table.Td>
                <Text
                  component={Link}
                  to={ROUTES.InvoiceDetails(inv.invoiceId)}
                  ff="monospace"
                  size="sm"
                  c="blue.8"
                  style={{ textDecoration: 'none' }}
                >
                  {inv.invoiceId.toUpperCase()}
                </Text>
                <Text size="xs" c="dimmed">
                  {inv.merchantInvoiceId}
                </Text>
              </Table.Td>
              <Table.Td>
                <Stack gap={0}>
                  <Text size="sm">{formatDateLong(inv.createdDate)}</Text>
                  <Text size="xs" c="dimmed">
                    {formatDateLong(inv.statusDate)}
                  </Text>
                </Stack>
              </Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  <Badge variant="outline" color="gray" tt="lowercase" {...UNCLIPPED_BADGE}>
                    {inv.flowType.code.toLowerCase()}
                  </Badge>
                  {inv.isTestProcessing && (
                    <Badge variant="filled" color="orange" {...UNCLIPPED_BADGE}>
                      Test
                    </Badge>
                  )}
                </Group>
              </Table.Td>
              <Table.Td>
                <StatusBadge code={inv.invoiceStatus.code} label={inv.invoiceStatus.value} />
              </Table.Td>
              <Table.Td ta="right">
                <Text size="sm" fw={500} style={{ whiteSpace: 'nowrap' }}>
                  {formatMoneyEn(inv.amount, inv.currency.dimension, inv.currency.code)}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
});
