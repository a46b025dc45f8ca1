import { useState, type ReactNode } from 'react';
import { Accordion, Badge, Group, Stack, Table, Text, Timeline } from '@mantine/core';
import { formatDateLong } from '@paydesk/contracts/dates';
import type { EventUser, InvoiceDetails } from '@paydesk/contracts/invoices';
import { hasPermission } from '@paydesk/contracts/permissions';
import { canDecideTicket } from '@paydesk/contracts/statuses';
import { SectionLoader } from '../../../components/full-page-loader';
import { usePermissions } from '../../../lib/session';
import { useDecideTicket } from '../api/invoice-actions';
import {
  useInvoiceCallbacks,
  useInvoiceErrors,
  useInvoiceEvents,
  useInvoiceTransactions,
  useStatusHistory,
  useSupportTickets,
} from '../api/invoice';
import { BADGE_COLOR, StatusBadge, UNCLIPPED_BADGE } from './status-badge';
import { ApproveWithAccountDialog, TicketDecisionButtons } from './ticket-decision';
import { CallbackReceipts } from './callback-receipts';

const CALLBACK_COLOR: Record<string, string> = {
  DELIVERED: BADGE_COLOR.success,
  PENDING: BADGE_COLOR.primary,
  FAILED: BADGE_COLOR.error,
  NO_URL: BADGE_COLOR.neutral,
};

export function StatusHistory({ invoiceId }: { invoiceId: string }) {
  const { data, isPending } = useStatusHistory(invoiceId);
  if (isPending) return <SectionLoader label="Loading status history" />;
  return (
    <section aria-label="Status history">
      <Text fw={600} mb="sm">
        Status history
      </Text>
      {data?.length ? (
        <Timeline active={data.length - 1} bulletSize={14} lineWidth={2}>
          {data.map((e, i) => (
            <Timeline.Item key={i} title={<StatusBadge code={e.status.code} label={e.status.value} size="sm" />}>
              <Text size="xs" c="dimmed">
                {formatDateLong(e.statusDate)}
              </Text>
            </Timeline.Item>
          ))}
        </Timeline>
      ) : (
        <Text size="sm" c="dimmed">
          No status changes
        </Text>
      )}
    </section>
  );
}

function Section({
  value,
  title,
  count,
  children,
}: {
  value: string;
  title: string;
  count: number | undefined;
  children: ReactNode;
}) {
  return (
    <Accordion.Item value={value}>
      <Accordion.Control>
        <Group gap="xs">
          <Text fw={500}>{title}</Text>
          <Badge variant="light" color="gray" size="sm" data-testid={`count-${value}`}>
            {count ?? '…'}
          </Badge>
        </Group>
      </Accordion.Control>
      <Accordion.Panel>{children}</Accordion.Panel>
    </Accordion.Item>
  );
}

/**
 * An event code in full (never cut to "S." / "T."): the label does not clip, so the badge is as wide as its
 * code and the table around it makes room (or scrolls inside its card where the card is narrower).
 */
function CodeBadge({ code }: { code: string }) {
  return (
    <Badge variant="light" size="sm" title={code} {...UNCLIPPED_BADGE} data-testid="event-code">
      {code}
    </Badge>
  );
}

/** Date and time may break between them, so a date column can narrow without spilling out of its card. */
const When = ({ iso }: { iso: string }) => {
  const [date, time] = splitDateLong(formatDateLong(iso));
  return (
    <Text size="xs" c="dimmed" component="span">
      <span style={{ whiteSpace: 'nowrap' }}>{date}</span> <span style={{ whiteSpace: 'nowrap' }}>{time}</span>
    </Text>
  );
};
/** "dd MMM yyyy HH:mm:ss" → ["dd MMM yyyy", "HH:mm:ss"] */
const splitDateLong = (s: string): [string, string] => {
  const at = s.lastIndexOf(' ');
  return at === -1 ? [s, ''] : [s.slice(0, at), s.slice(at + 1)];
};

/** A long id (uuid) that may break anywhere rather than widen its column. */
const LongId = ({ id }: { id: string }) => (
  <Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>
    {id}
  </Text>
);

/**
 * Who acted on an event: the name, with the username under it; the user's id on hover. Platform staff are named to a
 * merchant's staff only as such (the server sends no name, username or id then).
 */
const ActingUser = ({ userId, user }: { userId: string | null; user: EventUser | null }) => {
  if (!user) {
    return userId ? (
      <Text size="xs" ff="monospace" title={userId} truncate="end" maw={120}>
        {userId}
      </Text>
    ) : (
      '-'
    );
  }
  return (
    <div title={userId ? `User ID ${userId}` : undefined} data-testid="event-user">
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {user.name}
      </Text>
      {user.username && (
        <Text size="xs" c="dimmed">
          {user.username}
        </Text>
      )}
    </div>
  );
};

const Empty = ({ text }: { text: string }) => (
  <Text size="sm" c="dimmed">
    {text}
  </Text>
);

/** Collapsible sections with counts, each shown only with its permission. */
export function HistorySections({ invoice }: { invoice: InvoiceDetails }) {
  const { invoiceId } = invoice;
  const perms = usePermissions();
  const can = {
    errors: hasPermission(perms, 'invoice.error.read'),
    events: hasPermission(perms, 'invoice.event.read'),
    callbacks: hasPermission(perms, 'merchant.callback.read'),
    transactions: hasPermission(perms, 'invoice.transaction.read'),
  };
  const errors = useInvoiceErrors(invoiceId, can.errors);
  const events = useInvoiceEvents(invoiceId, can.events);
  const callbacks = useInvoiceCallbacks(invoiceId, can.callbacks);
  const tickets = useSupportTickets(invoiceId);
  const transactions = useInvoiceTransactions(invoiceId, can.transactions);
  const decide = useDecideTicket(invoiceId);
  const [approving, setApproving] = useState<number | null>(null);

  return (
    <Accordion multiple variant="separated" radius="md" defaultValue={[]}>
      {can.errors && (
        <Section value="errors" title="Errors" count={errors.data?.length}>
          {errors.data?.length ? (
            <Stack gap="xs">
              {errors.data.map((e, i) => (
                <Group key={i} justify="space-between" wrap="nowrap" align="flex-start">
                  <Text size="sm" c="red.8" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                    {e.description}
                  </Text>
                  <When iso={e.eventTime} />
                </Group>
              ))}
            </Stack>
          ) : (
            <Empty text="No errors" />
          )}
        </Section>
      )}

      {can.events && (
        <Section value="events" title="Event Log" count={events.data?.length}>
          {events.data?.length ? (
            <Table.ScrollContainer minWidth={560}>
              <Table verticalSpacing="xs" aria-label="Event log">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Code</Table.Th>
                    <Table.Th>Description</Table.Th>
                    <Table.Th>Event time</Table.Th>
                    <Table.Th>User</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {events.data.map((e) => (
                    <Table.Tr key={e.id} data-testid="event-row">
                      <Table.Td>
                        <CodeBadge code={e.code} />
                      </Table.Td>
                      <Table.Td miw={180}>
                        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                          {e.description}
                        </Text>
                        {e.routing && (
                          <Text size="xs" c="dimmed" data-testid="routing-record">
                            Routing:{' '}
                            {e.routing
                              .map((r) =>
                                r.outcome === 'given'
                                  ? `account ${r.accountId} given`
                                  : `account ${r.accountId} skipped (${r.outcome})`,
                              )
                              .join('; ')}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <When iso={e.eventTime} />
                      </Table.Td>
                      <Table.Td>
                        <ActingUser userId={e.userId} user={e.user} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          ) : (
            <Empty text="No events" />
          )}
        </Section>
      )}

      {can.callbacks && (
        <Section value="callbacks" title="Callbacks" count={callbacks.data?.length}>
          {callbacks.data?.length ? (
            <Stack gap="sm">
              {callbacks.data.map((c) => (
                <Stack
                  key={c.id}
                  gap={4}
                  p="xs"
                  style={{ border: '1px solid var(--mantine-color-gray-3)', borderRadius: 8 }}
                  data-testid="callback-item"
                >
                  <Group gap="xs" wrap="wrap">
                    <Text size="xs" ff="monospace">
                      {c.id}
                    </Text>
                    <Badge color={CALLBACK_COLOR[c.status] ?? BADGE_COLOR.warning} variant="light" size="sm">
                      {c.status}
                    </Badge>
                    <StatusBadge code={c.invoiceStatus} size="sm" />
                    {c.manual && (
                      <Badge variant="outline" size="sm" color="gray">
                        manual
                      </Badge>
                    )}
                  </Group>
                  <Text size="xs" c="dimmed">
                    Created {formatDateLong(c.createDate)} · Executed{' '}
                    {c.executionDate ? formatDateLong(c.executionDate) : '-'}
                  </Text>
                  {c.attempts.map((a, i) => (
                    <Text key={i} size="xs" c="dimmed" pl="md">
                      Attempt {i + 1}: {formatDateLong(a.attemptedAt)} → {a.responseCode ?? a.error ?? 'no response'}
                    </Text>
                  ))}
                  <CallbackReceipts received={c.received} />
                </Stack>
              ))}
            </Stack>
          ) : (
            <Empty text="No callbacks" />
          )}
        </Section>
      )}

      <Section value="support" title="Support History" count={tickets.data?.length}>
        {tickets.data?.length ? (
          <Stack gap="sm">
            {tickets.data.map((t) => (
              <Group key={t.id} justify="space-between" wrap="wrap" align="flex-start" data-testid="support-ticket">
                <Stack gap={2} style={{ minWidth: 0, flex: '1 1 240px' }}>
                  <Group gap="xs">
                    <Text size="sm" fw={500}>
                      #{t.id}
                    </Text>
                    <StatusBadge code={t.status.code} label={t.status.value} size="sm" />
                    <Text size="xs" c="dimmed">
                      {formatDateLong(t.createDate)}
                    </Text>
                  </Group>
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {t.description}
                  </Text>
                </Stack>
                {canDecideTicket({ status: t.status.code }, perms) && (
                  <TicketDecisionButtons
                    invoice={invoice}
                    ticketId={t.id}
                    decide={decide}
                    onApproveWithAccount={() => setApproving(t.id)}
                  />
                )}
              </Group>
            ))}
          </Stack>
        ) : (
          <Empty text="No support tickets" />
        )}
        <ApproveWithAccountDialog
          invoice={invoice}
          ticketId={approving}
          decide={decide}
          onClose={() => setApproving(null)}
        />
      </Section>

      {can.transactions && (
        <Section value="transactions" title="Transactions" count={transactions.data?.length}>
          {transactions.data?.length ? (
            <Table.ScrollContainer minWidth={560}>
              <Table verticalSpacing="xs" aria-label="Provider transactions">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>ID</Table.Th>
                    <Table.Th>Type</Table.Th>
                    <Table.Th>Attempt</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Created</Table.Th>
                    <Table.Th>Status date</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {transactions.data.map((x) => (
                    <Table.Tr key={x.id} data-testid="transaction-row">
                      <Table.Td w={150}>
                        <LongId id={x.id} />
                      </Table.Td>
                      <Table.Td>{x.type}</Table.Td>
                      <Table.Td>{x.attempt}</Table.Td>
                      <Table.Td>
                        <StatusBadge code={x.status} size="sm" />
                      </Table.Td>
                      <Table.Td>
                        <When iso={x.createDate} />
                      </Table.Td>
                      <Table.Td>
                        <When iso={x.statusDate} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          ) : (
            <Empty text="No transactions" />
          )}
        </Section>
      )}
    </Accordion>
  );
}
