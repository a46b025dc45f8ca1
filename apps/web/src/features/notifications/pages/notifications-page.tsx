import { Alert, Anchor, Badge, Card, Center, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { formatDateLong } from '@paydesk/contracts/dates';
import type { NotificationItem } from '@paydesk/contracts/notifications';
import { PageTitle } from '../../../components/page-title';
import { SectionLoader } from '../../../components/full-page-loader';
import { useCurrentUser } from '../../../lib/session';
import { useNotifications, useOpenForMerchant } from '../api/notifications';

/**
 * Notifications: a name, a payment status text and a status of In process or Closed, one row per alert the server
 * derives from the current state (docs/operations.md, "Alerts"), read again every minute.
 */
export default function NotificationsPage() {
  const { enabled, list } = useNotifications();
  return (
    <>
      <PageTitle title="Notifications" />
      {!enabled ? (
        <Text c="dimmed">
          Alerts show what your role lets you see elsewhere: terminal success rates with monitoring, failing callback
          endpoints with callbacks. Your role shows neither.
        </Text>
      ) : list.isPending ? (
        <SectionLoader label="Loading notifications" />
      ) : list.isError ? (
        <Alert color="red" title="Could not load the notifications">
          {list.error.message}
        </Alert>
      ) : (
        <NotificationTable items={list.data.data} inProcess={list.data.inProcess} />
      )}
    </>
  );
}

function NotificationTable({ items, inProcess }: { items: NotificationItem[]; inProcess: number }) {
  const me = useCurrentUser();
  const open = useOpenForMerchant();
  const listed = items.filter((n) => n.status === 'In process').length;
  return (
    <Stack gap="sm">
      {inProcess > listed && (
        <Text size="sm" c="dimmed">
          {inProcess} alerts are in process; the oldest of each kind are listed here.
        </Text>
      )}
      <Card withBorder p={0}>
        {items.length === 0 ? (
          <Center py="xl">
            <Text c="dimmed">Nothing needs attention.</Text>
          </Center>
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover aria-label="Notifications">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Payment status</Table.Th>
                  <Table.Th>Status</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((n) => (
                  <Table.Tr key={`${n.id}:${n.status}`}>
                    <Table.Td>
                      <Anchor component={Link} to={n.link} onClick={() => open(n)} fw={500} size="sm">
                        {n.name}
                      </Anchor>
                      <Text size="xs" c="dimmed">
                        {me.scope === 'platform' && n.merchantName ? `${n.merchantName} · ` : ''}
                        since {formatDateLong(n.since)} UTC
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{n.paymentStatus}</Text>
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      <Badge
                        color={n.status === 'In process' ? 'blue' : 'gray'}
                        variant="light"
                        // the whole status always: the column takes its width rather than cutting it short
                        style={{ minWidth: 'max-content' }}
                      >
                        {n.status}
                      </Badge>
                      {n.closedAt && (
                        <Text size="xs" c="dimmed" mt={4}>
                          {formatDateLong(n.closedAt)} UTC
                        </Text>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
    </Stack>
  );
}
