import { Fragment, useState } from 'react';
import { ActionIcon, Anchor, Badge, Group, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { AuditEntry } from '@paydesk/contracts/audit';
import { formatDateLong } from '@paydesk/contracts/dates';
import { PAGES } from '../../../lib/pages';
import { ACTOR_KIND, AUDIT_ACTION_LABELS } from '../model/action-labels';
import { ChangeView } from './change-view';

const COLUMNS = 7;

/** Ids are long (UUIDs): the row shows their start, the details the whole id. */
const SHORT_ID = 8;
const shortId = (id: string) => (id.length > SHORT_ID + 1 ? `${id.slice(0, SHORT_ID)}…` : id);

function Target({ entry, full }: { entry: AuditEntry; full?: boolean }) {
  if (!entry.targetType) return <Text size="sm">—</Text>;
  const id = entry.targetId ?? '';
  const shown = full ? id : shortId(id);
  return (
    <Group gap={6} wrap="nowrap" title={full ? undefined : id}>
      <Text size="xs" c="dimmed">
        {entry.targetType}
      </Text>
      {entry.targetType === 'invoice' && id ? (
        <Anchor
          component={Link}
          to={PAGES.InvoiceDetails(id)}
          size="xs"
          ff="monospace"
          aria-label={`Invoice ${id}`}
          style={full ? { wordBreak: 'break-all' } : { whiteSpace: 'nowrap' }}
        >
          {shown}
        </Anchor>
      ) : (
        <Text size="xs" ff="monospace" style={full ? { wordBreak: 'break-all' } : { whiteSpace: 'nowrap' }}>
          {shown}
        </Text>
      )}
    </Group>
  );
}

/** The audit trail: one row a record, each expandable to its before and after. */
export function AuditTable({ rows, showMerchant }: { rows: AuditEntry[]; showMerchant: boolean }) {
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const toggle = (id: number) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <Table.ScrollContainer minWidth={showMerchant ? 880 : 760}>
      <Table verticalSpacing="sm" highlightOnHover aria-label="Audit trail">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={40} />
            <Table.Th>Time (UTC)</Table.Th>
            <Table.Th>Actor</Table.Th>
            {showMerchant && <Table.Th>Merchant</Table.Th>}
            <Table.Th>Action</Table.Th>
            <Table.Th>Target</Table.Th>
            <Table.Th>Reason</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((e) => {
            const expanded = open.has(e.id);
            const kind = ACTOR_KIND[e.actor.kind];
            const who = e.actor.username ?? (e.actor.kind === 'system' ? 'System' : 'Unknown');
            return (
              <Fragment key={e.id}>
                <Table.Tr
                  data-testid="audit-row"
                  style={{ cursor: 'pointer' }}
                  onClick={(ev) => {
                    if ((ev.target as HTMLElement).closest('a, button')) return;
                    toggle(e.id);
                  }}
                >
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      aria-expanded={expanded}
                      aria-controls={`audit-details-${e.id}`}
                      aria-label={`${expanded ? 'Hide' : 'Show'} details of ${AUDIT_ACTION_LABELS[e.action]} at ${formatDateLong(e.at)}`}
                      onClick={() => toggle(e.id)}
                    >
                      {expanded ? (
                        <IconChevronDown size={16} aria-hidden />
                      ) : (
                        <IconChevronRight size={16} aria-hidden />
                      )}
                    </ActionIcon>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                      {formatDateLong(e.at)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <Text size="sm" fw={500}>
                        {who}
                      </Text>
                      <Badge size="xs" variant="light" color={kind.color} c="dark.7" miw="max-content">
                        {kind.label}
                      </Badge>
                    </Group>
                  </Table.Td>
                  {showMerchant && (
                    <Table.Td>
                      <Text size="sm" c={e.merchantName ? undefined : 'dimmed'}>
                        {e.merchantName ?? '—'}
                      </Text>
                    </Table.Td>
                  )}
                  <Table.Td>
                    <Text size="sm">{AUDIT_ACTION_LABELS[e.action] ?? e.action}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Target entry={e} />
                  </Table.Td>
                  <Table.Td maw={280}>
                    <Text size="sm" lineClamp={expanded ? undefined : 2} c={e.reason ? undefined : 'dimmed'}>
                      {e.reason ?? '—'}
                    </Text>
                  </Table.Td>
                </Table.Tr>
                {expanded && (
                  <Table.Tr id={`audit-details-${e.id}`} bg="gray.0">
                    <Table.Td colSpan={showMerchant ? COLUMNS : COLUMNS - 1} px="lg" py="md">
                      <Stack gap="sm">
                        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
                          <ChangeView label="Before" value={e.before} />
                          <ChangeView label="After" value={e.after} />
                        </SimpleGrid>
                        <Group gap="lg" align="center">
                          {e.targetType && (
                            <Group gap={6}>
                              <Text size="sm" c="dimmed">
                                Target:
                              </Text>
                              <Target entry={e} full />
                            </Group>
                          )}
                          {e.reason && (
                            <Text size="sm">
                              <Text span c="dimmed">
                                Reason:{' '}
                              </Text>
                              {e.reason}
                            </Text>
                          )}
                          {e.ip && (
                            <Text size="sm">
                              <Text span c="dimmed">
                                IP:{' '}
                              </Text>
                              {e.ip}
                            </Text>
                          )}
                          <Text size="sm" c="dimmed">
                            {e.action}
                          </Text>
                        </Group>
                      </Stack>
                    </Table.Td>
                  </Table.Tr>
                )}
              </Fragment>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
