import { Badge, Card, Table, Text } from '@mantine/core';
import { PageTitle } from '../../../components/page-title';

type SampleNotification = { id: number; name: string; paymentStatus: string; status: 'In process' | 'Closed' };

// A static sample list: SPEC §2 says Notifications is not driven by the server.
const SAMPLE: SampleNotification[] = [
  {
    id: 1,
    name: 'Deposit awaiting confirmation',
    paymentStatus: 'Payment is being checked by the provider',
    status: 'In process',
  },
  { id: 2, name: 'Withdrawal retried', paymentStatus: 'Payout was sent to the provider again', status: 'In process' },
  { id: 3, name: 'Deposit confirmed', paymentStatus: 'Payment received and credited', status: 'Closed' },
  { id: 4, name: 'Withdrawal declined', paymentStatus: 'Payout was declined by the bank', status: 'Closed' },
  { id: 5, name: 'Support ticket resolved', paymentStatus: 'Payment status corrected by support', status: 'Closed' },
];

export default function NotificationsPage() {
  return (
    <>
      <PageTitle title="Notifications" />
      <Card withBorder p={0}>
        <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Payment status</Table.Th>
              <Table.Th>Status</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {SAMPLE.map((n) => (
              <Table.Tr key={n.id}>
                <Table.Td>
                  <Text fw={500} size="sm">
                    {n.name}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" c="dimmed">
                    {n.paymentStatus}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Badge color={n.status === 'In process' ? 'blue' : 'gray'} variant="light">
                    {n.status}
                  </Badge>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Card>
    </>
  );
}
