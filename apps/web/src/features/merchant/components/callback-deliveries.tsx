import '@mantine/dates/styles.css';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconFilterOff, IconRepeat } from '@tabler/icons-react';
import { CALLBACK_REPLAY_MAX, callbackDeliveryQuery } from '@paydesk/contracts/callbacks';
import { formatDateLong } from '@paydesk/contracts/dates';
import { CALLBACK_STATUSES, WEBHOOK_TYPES, type WebhookType } from '@paydesk/contracts/engine';
import { SectionLoader } from '../../../components/full-page-loader';
import { toast } from '../../../components/toast';
import { actionErrorMessage, isApiError } from '../../../lib/api';
import { formatCount } from '../../../lib/format';
import { PAGES } from '../../../lib/pages';
import { useCan } from '../../../lib/session';
import { useDeliveries, useReplay, useReplayPreview } from '../api/callbacks';
import {
  CALLBACK_STATUS_LABELS,
  EMPTY_CALLBACK_FILTERS,
  EVENT_LABELS,
  isFiltered,
  replayDuration,
  toDeliveryFilter,
  type CallbackFilters,
  type CallbacksState,
} from '../model/callback-filters';

const ALL = '__all__';
const STATUS_COLOR: Record<string, string> = { DELIVERED: 'green', PENDING: 'blue', FAILED: 'red', NO_URL: 'gray' };
/** A badge as wide as its text: the table scrolls in its card rather than clip "FAILED" to "FAI…". */
const UNCLIPPED = { style: { overflow: 'visible' }, styles: { label: { overflow: 'visible', textOverflow: 'clip' } } };

type Props = {
  merchant: string | null;
  state: CallbacksState;
  update: (next: Partial<CallbacksState>) => void;
};

/**
 * The merchant's callback deliveries across invoices (merchant.callback.read), newest first, filtered from the URL,
 * and the replay of what the filter picks (merchant.callback.edit).
 */
export function CallbackDeliveries({ merchant, state, update }: Props) {
  const filter = toDeliveryFilter(state);
  const list = useDeliveries(merchant, { ...filter, ...(state.after ? { after: state.after } : {}) });
  const canReplay = useCan('merchant.callback.edit');
  const [replaying, setReplaying] = useState(false);
  const setFilters = (next: Partial<CallbackFilters>) => update({ ...next, after: null });

  return (
    <Stack gap="md">
      <DeliveryFilters value={state} onChange={setFilters} />
      {canReplay && (
        <Group justify="flex-end">
          <Button leftSection={<IconRepeat size={16} aria-hidden />} onClick={() => setReplaying(true)}>
            Replay
          </Button>
        </Group>
      )}
      {list.isPending ? (
        <SectionLoader label="Loading deliveries" />
      ) : list.isError ? (
        <Alert color="red" title="Could not load the deliveries">
          {list.error.message}
        </Alert>
      ) : !list.data.data.length ? (
        <Center py="xl">
          <Text c="dimmed">Nothing found.</Text>
        </Center>
      ) : (
        <div style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }} aria-busy={list.isPlaceholderData}>
          <Table.ScrollContainer minWidth={940}>
            <Table verticalSpacing="sm" striped aria-label="Callback deliveries">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Created</Table.Th>
                  <Table.Th>Event</Table.Th>
                  <Table.Th>Invoice</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th style={{ textAlign: 'right' }}>Attempts</Table.Th>
                  <Table.Th>Last answer</Table.Th>
                  <Table.Th>Last attempt</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.data.map((d) => (
                  <Table.Tr key={d.id}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateLong(d.createDate)}</Table.Td>
                    <Table.Td>
                      {EVENT_LABELS[d.type]}
                      <Text size="xs" c="dimmed">
                        {d.invoiceStatus}
                      </Text>
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      <Anchor component={Link} to={PAGES.InvoiceDetails(d.invoiceId)} size="sm">
                        {d.merchantInvoiceId}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <Badge color={STATUS_COLOR[d.status]} variant="light" size="sm" {...UNCLIPPED}>
                          {CALLBACK_STATUS_LABELS[d.status]}
                        </Badge>
                        {d.replayOf && (
                          <Badge color="gray" variant="outline" size="sm" {...UNCLIPPED}>
                            Replay
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td style={{ textAlign: 'right' }}>{formatCount(d.attempts)}</Table.Td>
                    <Table.Td>
                      <Text size="sm">
                        {d.lastResponseCode !== null ? `HTTP ${d.lastResponseCode}` : (d.lastError ?? '—')}
                      </Text>
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      {d.executionDate ? formatDateLong(d.executionDate) : '—'}
                      {d.nextAttemptAt && (
                        <Text size="xs" c="dimmed">
                          next {formatDateLong(d.nextAttemptAt)}
                        </Text>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </div>
      )}
      <Group justify="flex-end" gap="xs">
        {state.after && (
          <Button variant="default" size="xs" onClick={() => update({ after: null })}>
            First page
          </Button>
        )}
        {list.data?.next && (
          <Button variant="default" size="xs" onClick={() => update({ after: list.data.next })}>
            Next page
          </Button>
        )}
      </Group>
      {canReplay && (
        <ReplayDialog opened={replaying} merchant={merchant} filters={state} onClose={() => setReplaying(false)} />
      )}
    </Stack>
  );
}

const STATUS_OPTIONS = [
  { value: ALL, label: 'All statuses' },
  ...CALLBACK_STATUSES.map((s) => ({ value: s, label: CALLBACK_STATUS_LABELS[s] })),
];
const EVENT_OPTIONS = [
  { value: ALL, label: 'All events' },
  ...WEBHOOK_TYPES.map((t) => ({ value: t, label: EVENT_LABELS[t] })),
];

function DeliveryFilters({
  value,
  onChange,
}: {
  value: CallbackFilters;
  onChange: (v: Partial<CallbackFilters>) => void;
}) {
  const [invoice, setInvoice] = useState(value.invoiceId ?? '');
  // the URL may change under us (back/forward, reset): follow it
  useEffect(() => setInvoice(value.invoiceId ?? ''), [value.invoiceId]);
  const invoiceValid = invoice === '' || callbackDeliveryQuery.shape.invoiceId.safeParse(invoice.trim()).success;
  const applyInvoice = () => {
    if (invoiceValid) onChange({ invoiceId: invoice.trim() || null });
  };
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, lg: 6 }} spacing="sm" verticalSpacing="sm">
      <Select
        label="Status"
        data={STATUS_OPTIONS}
        value={value.status ?? ALL}
        onChange={(v) => onChange({ status: !v || v === ALL ? null : (v as CallbackFilters['status']) })}
        allowDeselect={false}
        comboboxProps={{ keepMounted: false }}
      />
      <Select
        label="Event"
        data={EVENT_OPTIONS}
        value={value.type ?? ALL}
        onChange={(v) => onChange({ type: !v || v === ALL ? null : (v as WebhookType) })}
        allowDeselect={false}
        comboboxProps={{ keepMounted: false }}
      />
      <DatePickerInput
        label="Date From"
        placeholder="dd/mm/yyyy"
        valueFormat="DD/MM/YYYY"
        clearable
        value={value.fromDay}
        maxDate={value.toDay ?? undefined}
        onChange={(v) => onChange({ fromDay: v || null })}
      />
      <DatePickerInput
        label="Date To"
        placeholder="dd/mm/yyyy"
        valueFormat="DD/MM/YYYY"
        clearable
        value={value.toDay}
        minDate={value.fromDay ?? undefined}
        onChange={(v) => onChange({ toDay: v || null })}
      />
      <TextInput
        label="Invoice ID"
        placeholder="Paydesk invoice id"
        value={invoice}
        error={invoiceValid ? undefined : 'Not an invoice id'}
        onChange={(e) => setInvoice(e.currentTarget.value)}
        onBlur={applyInvoice}
        onKeyDown={(e) => e.key === 'Enter' && applyInvoice()}
      />
      <Button
        variant="subtle"
        color="gray"
        leftSection={<IconFilterOff size={16} aria-hidden />}
        disabled={!isFiltered(value)}
        onClick={() => onChange(EMPTY_CALLBACK_FILTERS)}
        style={{ alignSelf: 'end' }}
      >
        Reset filters
      </Button>
    </SimpleGrid>
  );
}

/** The filter in words, as the replay dialog repeats it: "Failed · Status changed · 20/11/2026 – 21/11/2026". */
function filterText(f: CallbackFilters): string {
  const day = (d: string) => d.split('-').reverse().join('/');
  const parts = [
    f.status ? CALLBACK_STATUS_LABELS[f.status] : 'Every status',
    f.type ? EVENT_LABELS[f.type] : 'every event',
  ];
  if (f.fromDay || f.toDay) parts.push(`${f.fromDay ? day(f.fromDay) : '…'} – ${f.toDay ? day(f.toDay) : '…'}`);
  if (f.invoiceId) parts.push(`invoice ${f.invoiceId}`);
  return parts.join(' · ');
}

/**
 * Replay: first counts what the list's filter would send (nothing is sent), then, confirmed, queues it. Each event
 * among the deliveries is sent once more under a new webhook-id; events still being delivered are left alone.
 */
function ReplayDialog({
  opened,
  merchant,
  filters,
  onClose,
}: {
  opened: boolean;
  merchant: string | null;
  filters: CallbackFilters;
  onClose: () => void;
}) {
  const filter = toDeliveryFilter(filters);
  const preview = useReplayPreview(merchant, filter, opened);
  const run = useReplay();
  const count = preview.data?.count;
  const confirm = () =>
    run.mutate(
      { merchant, filter },
      {
        onSuccess: (r) => {
          toast.success(`${formatCount(r.count)} callbacks queued to be sent again`);
          onClose();
        },
        onError: (e) => toast.error(actionErrorMessage(e, 'The replay could not be queued')),
      },
    );
  return (
    <Modal opened={opened} onClose={onClose} title="Replay callbacks" centered size="lg">
      <Stack>
        <Text size="sm">{filterText(filters)}</Text>
        {preview.isPending ? (
          <SectionLoader label="Counting deliveries" />
        ) : preview.isError ? (
          <Alert color="red" title="Nothing can be replayed with this filter">
            {isApiError(preview.error) ? preview.error.serverMessage : preview.error.message}
          </Alert>
        ) : count === 0 ? (
          <Text data-testid="replay-preview">
            Nothing to replay: no event among these deliveries can be sent again (events still being delivered are left
            alone).
          </Text>
        ) : count !== undefined ? (
          <Text data-testid="replay-preview">
            {formatCount(count)} {count === 1 ? 'event' : 'events'} will be sent once more, each under a new webhook-id
            with its original body. Sending takes {replayDuration(count, preview.data!.perSecond)}; live callbacks go
            first. Events still being delivered are left alone.
          </Text>
        ) : null}
        <Text size="xs" c="dimmed">
          At most {formatCount(CALLBACK_REPLAY_MAX)} deliveries per replay.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={run.isPending}>
            Cancel
          </Button>
          <Button onClick={confirm} loading={run.isPending} disabled={!count}>
            {count ? `Replay ${formatCount(count)}` : 'Replay'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
