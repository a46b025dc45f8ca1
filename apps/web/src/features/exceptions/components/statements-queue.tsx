import { useState } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  FileInput,
  Group,
  Modal,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { Link } from 'react-router';
import { IconFileUpload } from '@tabler/icons-react';
import { INVOICE_STATUSES } from '@paydesk/contracts/statuses';
import { majorStringToMinorDigits } from '@paydesk/contracts/money';
import {
  DEFAULT_STATEMENT_HEADER,
  type StatementItem,
  type StatementLineItem,
  type StatementMapping,
  type StatementOutcome,
  type StatementResolution,
} from '@paydesk/contracts/statements';
import { actionErrorMessage, isApiError } from '../../../lib/api';
import { useCurrencies, useProviders } from '../../../lib/references';
import { MoneyInput } from '../../../components/money-input';
import { useCan } from '../../../lib/session';
import { CsvButton } from '../../../components/csv-button';
import { SectionLoader } from '../../../components/full-page-loader';
import { toast } from '../../../components/toast';
import {
  useResolveStatementLine,
  useSetStatementMapping,
  useStatement,
  useStatementMapping,
  useStatements,
  useUploadStatement,
} from '../api/statements';
import { formatAge } from '../model/desk';
import {
  MAPPING_FIELDS,
  MAPPING_LABEL,
  columnsNote,
  counterpartyText,
  mappingBody,
  mappingErrors,
  mappingForm,
  refusedMappingFields,
  type MappingErrors,
  type MappingForm,
} from '../model/statements';
import { useMoney } from './money';

const OUTCOME: Record<StatementOutcome, { label: string; color: string }> = {
  MATCHED: { label: 'Matched', color: 'green' },
  STATEMENT_ONLY: { label: 'Statement only', color: 'orange' },
  BOOKS_ONLY: { label: 'Books only', color: 'grape' },
  MISMATCH: { label: 'Mismatch', color: 'red' },
};

const today = () => new Date().toISOString().slice(0, 10);
/** A day picked (YYYY-MM-DD) as the UTC instant it starts at; `next`: the instant the day after starts. */
const dayStart = (day: string, next = false) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + (next ? 86_400_000 : 0)).toISOString();
const utcDay = (iso: string) => iso.slice(0, 10);
/** A period as operators read it: its UTC days, the last one inclusive. */
const periodText = (s: Pick<StatementItem, 'periodFrom' | 'periodTo'>) => {
  const from = utcDay(s.periodFrom);
  const last = utcDay(new Date(Date.parse(s.periodTo) - 1).toISOString());
  return from === last ? from : `${from} – ${last}`;
};
const exceptionsOf = (s: StatementItem) => s.counts.STATEMENT_ONLY + s.counts.BOOKS_ONLY + s.counts.MISMATCH;

/**
 * The desk's provider statements: upload one (provider, period, file), the statements with their outcomes, a
 * statement's lines by outcome, and the exceptions resolved by hand (match) or accepted, each with a reason.
 */
export function StatementsQueue() {
  const canResolve = useCan('incoming.resolve');
  const [selected, setSelected] = useState<string | null>(null);
  const [after, setAfter] = useState<string | null>(null);
  const list = useStatements(after ? { after, limit: 20 } : { limit: 20 });
  const now = Date.now();
  return (
    <Stack gap="lg">
      {canResolve && <UploadForm onUploaded={(id) => setSelected(id)} />}
      <div>
        <Title order={3} size="h4" mb="sm">
          Statements
        </Title>
        {list.isPending ? (
          <SectionLoader label="Loading statements" />
        ) : list.isError ? (
          <Alert color="red" title="Could not load the statements">
            {list.error.message}
          </Alert>
        ) : !list.data.data.length ? (
          <Center py="lg">
            <Text c="dimmed">No statement uploaded yet.</Text>
          </Center>
        ) : (
          <Table.ScrollContainer minWidth={760}>
            <Table verticalSpacing="sm" striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Uploaded</Table.Th>
                  <Table.Th>Provider</Table.Th>
                  <Table.Th>Period (UTC)</Table.Th>
                  <Table.Th>File</Table.Th>
                  <Table.Th style={{ textAlign: 'right' }}>Lines</Table.Th>
                  <Table.Th style={{ textAlign: 'right' }}>Matched</Table.Th>
                  <Table.Th>Exceptions</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.data.map((s) => (
                  <Table.Tr key={s.id} bg={s.id === selected ? 'var(--mantine-color-blue-light)' : undefined}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      {formatAge(s.uploadedAt, now)}
                      {s.uploadedBy && (
                        <Text size="xs" c="dimmed">
                          by {s.uploadedBy}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{s.providerName}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{periodText(s)}</Table.Td>
                    <Table.Td style={{ wordBreak: 'break-all' }}>{s.filename}</Table.Td>
                    <Table.Td style={{ textAlign: 'right' }}>{s.lineCount.toLocaleString('en')}</Table.Td>
                    <Table.Td style={{ textAlign: 'right' }}>{s.counts.MATCHED.toLocaleString('en')}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>
                      {s.open > 0 ? (
                        <Badge color="red" variant="light">
                          {s.open.toLocaleString('en')} open
                        </Badge>
                      ) : (
                        <Text size="sm" c="dimmed">
                          {exceptionsOf(s) ? 'all resolved' : 'none'}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Button
                        size="xs"
                        variant={s.id === selected ? 'filled' : 'default'}
                        onClick={() => setSelected(s.id === selected ? null : s.id)}
                        aria-label={`Lines of ${s.filename}`}
                      >
                        {s.id === selected ? 'Hide lines' : 'Lines'}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <Group justify="flex-end" mt="sm" gap="xs">
          {after && (
            <Button variant="default" size="xs" onClick={() => setAfter(null)}>
              First page
            </Button>
          )}
          {list.data?.next && (
            <Button variant="default" size="xs" onClick={() => setAfter(list.data.next)}>
              Next page
            </Button>
          )}
        </Group>
      </div>
      {selected && <StatementLines key={selected} id={selected} canResolve={canResolve} />}
    </Stack>
  );
}

function UploadForm({ onUploaded }: { onUploaded: (id: string) => void }) {
  const providers = useProviders();
  const upload = useUploadStatement();
  const [providerId, setProviderId] = useState<string | null>(null);
  const [from, setFrom] = useState(today);
  const [to, setTo] = useState(today);
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [columnsOpen, setColumnsOpen] = useState(false);
  const mapping = useStatementMapping(providerId === null ? null : Number(providerId));
  const periodOk = !!from && !!to && from <= to;
  const ready = providerId !== null && periodOk && file !== null;
  const submit = () => {
    if (!ready) return;
    setError(null);
    upload.mutate(
      { providerId: Number(providerId), periodFrom: dayStart(from), periodTo: dayStart(to, true), file: file! },
      {
        onSuccess: ({ data }) => {
          const s = data.statement;
          if (data.duplicate)
            toast.success(`This file was uploaded before (${periodText(s)}): it is not counted again`);
          else
            toast.success(
              `Statement reconciled: ${s.lineCount.toLocaleString('en')} lines, ${exceptionsOf(s)} exceptions`,
            );
          setFile(null);
          onUploaded(s.id);
        },
        onError: (e) =>
          setError(isApiError(e) ? e.serverMessage : actionErrorMessage(e, 'The statement could not be uploaded')),
      },
    );
  };
  const columns = mapping.data?.mapping;
  return (
    <Paper withBorder radius="md" p="md">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          <Title order={3} size="h4">
            Upload a provider statement
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
            <Select
              label="Provider"
              placeholder="Choose the provider"
              data={(providers.data ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
              value={providerId}
              onChange={setProviderId}
              required
              searchable
            />
            <TextInput
              type="date"
              label="From (UTC day)"
              value={from}
              onChange={(e) => setFrom(e.currentTarget.value)}
              required
            />
            <TextInput
              type="date"
              label="To (UTC day, inclusive)"
              value={to}
              onChange={(e) => setTo(e.currentTarget.value)}
              error={from && to && from > to ? 'Not before From' : undefined}
              required
            />
            <FileInput
              label="Statement file (CSV)"
              placeholder="Choose a file"
              accept=".csv,text/csv,text/plain"
              value={file}
              onChange={setFile}
              clearable
              required
            />
          </SimpleGrid>
          <Text size="sm" c="dimmed">
            {providerId === null
              ? `Header ${DEFAULT_STATEMENT_HEADER}, or the provider's own columns.`
              : columnsNote(columns, !!mapping.data?.custom)}{' '}
            Amounts in minor units, direction IN or OUT. The same file is never counted twice.
          </Text>
          {error && (
            <Alert color="red" title="The statement was not taken" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            {providerId !== null && (
              <Button variant="default" onClick={() => setColumnsOpen(true)}>
                Columns
              </Button>
            )}
            <Button
              type="submit"
              leftSection={<IconFileUpload size={16} aria-hidden />}
              disabled={!ready}
              loading={upload.isPending}
            >
              Upload and reconcile
            </Button>
          </Group>
        </Stack>
      </form>
      {columnsOpen && providerId !== null && columns && (
        <MappingDialog
          providerId={Number(providerId)}
          providerName={providers.data?.find((p) => String(p.id) === providerId)?.name ?? ''}
          current={columns}
          custom={!!mapping.data?.custom}
          onClose={() => setColumnsOpen(false)}
        />
      )}
    </Paper>
  );
}

/** A provider's columns: which of its column names holds each field; audited with the reason. */
function MappingDialog({
  providerId,
  providerName,
  current,
  custom,
  onClose,
}: {
  providerId: number;
  providerName: string;
  current: StatementMapping;
  custom: boolean;
  onClose: () => void;
}) {
  const save = useSetStatementMapping();
  const [form, setForm] = useState<MappingForm>(() => mappingForm(current));
  const [reason, setReason] = useState('');
  // what the server refused, on its fields, until they are edited
  const [refused, setRefused] = useState<MappingErrors>({});
  const errors = { ...refused, ...mappingErrors(form) };
  const ok = reason.trim().length >= 3 && !Object.keys(errors).length;
  const send = (next: StatementMapping | null) =>
    save.mutate(
      { providerId, mapping: next, reason: reason.trim() },
      {
        onSuccess: () => {
          toast.success(next ? `${providerName}'s columns saved` : `${providerName} uses the default columns again`);
          onClose();
        },
        onError: (e) => {
          const onFields = refusedMappingFields(isApiError(e) ? e.fields : undefined);
          if (Object.keys(onFields).length) setRefused(onFields);
          else toast.error(actionErrorMessage(e, 'The columns could not be saved'));
        },
      },
    );
  return (
    <Modal opened onClose={onClose} title={`Statement columns of ${providerName}`} centered>
      <Stack>
        <Text size="sm">
          The name of the provider&apos;s column that holds each field (letter case does not matter).
        </Text>
        {MAPPING_FIELDS.map((f) => (
          <TextInput
            key={f}
            label={MAPPING_LABEL[f]}
            description={
              f === 'counterparty' ? 'Optional: leave it empty when the files name no card or phone' : undefined
            }
            value={form[f]}
            onChange={(e) => {
              const value = e.currentTarget.value;
              setForm((m) => ({ ...m, [f]: value }));
              setRefused({});
            }}
            error={errors[f]}
            required={f !== 'counterparty'}
          />
        ))}
        <Textarea
          label="Reason"
          description="Recorded in the audit trail (at least 3 characters)"
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          autosize
          minRows={2}
          maxLength={500}
          required
        />
        <Group justify="space-between">
          <Button
            variant="subtle"
            color="gray"
            disabled={!custom || reason.trim().length < 3}
            onClick={() => send(null)}
          >
            Use the default columns
          </Button>
          <Group gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button disabled={!ok} loading={save.isPending} onClick={() => send(mappingBody(form))}>
              Save
            </Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}

type LineFilter = 'OPEN' | 'ALL' | StatementOutcome;

function StatementLines({ id, canResolve }: { id: string; canResolve: boolean }) {
  const [filter, setFilter] = useState<LineFilter>('OPEN');
  const [after, setAfter] = useState<string | null>(null);
  const [acting, setActing] = useState<StatementLineItem | null>(null);
  const providers = useProviders();
  const query = {
    limit: 50,
    ...(filter === 'OPEN' ? { open: 'true' } : filter === 'ALL' ? {} : { outcome: filter }),
    ...(after ? { after } : {}),
  };
  const detail = useStatement(id, query);
  const money = useMoney();
  if (detail.isPending) return <SectionLoader label="Loading the statement" />;
  if (detail.isError)
    return (
      <Alert color="red" title="Could not load the statement">
        {detail.error.message}
      </Alert>
    );
  const { statement: s, lines } = detail.data.data;
  const code = providers.data?.find((p) => p.id === s.providerId)?.code ?? String(s.providerId);
  const from = utcDay(s.periodFrom);
  const to = utcDay(new Date(Date.parse(s.periodTo) - 1).toISOString());
  const changeFilter = (v: string) => {
    setFilter(v as LineFilter);
    setAfter(null);
  };
  return (
    <Paper withBorder radius="md" p="md">
      <Group justify="space-between" align="flex-start" mb="sm" gap="sm">
        <div>
          <Title order={3} size="h4">
            {s.filename}
          </Title>
          <Text size="sm" c="dimmed">
            {s.providerName} · {periodText(s)} (UTC) · {s.lineCount.toLocaleString('en')} lines
          </Text>
          <Group gap={6} mt={6}>
            {(Object.keys(OUTCOME) as StatementOutcome[]).map((o) => (
              <Badge key={o} color={OUTCOME[o].color} variant="light">
                {OUTCOME[o].label}: {s.counts[o].toLocaleString('en')}
              </Badge>
            ))}
          </Group>
        </div>
        <CsvButton
          source={{
            path: '/api/v1/statements/summary.csv',
            filename: `Statements-${code}-${from}-${to}.csv`,
            scoped: false,
          }}
          query={{ providerId: s.providerId, from, to }}
          label="Daily summary (CSV)"
        />
      </Group>
      <SegmentedControl
        aria-label="Which lines"
        mb="sm"
        value={filter}
        onChange={changeFilter}
        data={[
          { value: 'OPEN', label: `To resolve (${s.open})` },
          { value: 'ALL', label: 'All' },
          ...(Object.keys(OUTCOME) as StatementOutcome[]).map((o) => ({ value: o, label: OUTCOME[o].label })),
        ]}
      />
      {!lines.length ? (
        <Center py="lg">
          <Text c="dimmed">{filter === 'OPEN' ? 'Nothing left to resolve.' : 'No lines here.'}</Text>
        </Center>
      ) : (
        <div style={{ opacity: detail.isPlaceholderData ? 0.6 : 1 }} aria-busy={detail.isPlaceholderData}>
          <Table.ScrollContainer minWidth={900}>
            <Table verticalSpacing="xs" striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Line</Table.Th>
                  <Table.Th>Time (UTC)</Table.Th>
                  <Table.Th>Account</Table.Th>
                  <Table.Th style={{ textAlign: 'right' }}>Amount</Table.Th>
                  <Table.Th>Reference</Table.Th>
                  <Table.Th>Outcome</Table.Th>
                  <Table.Th>Next step</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {lines.map((l) => (
                  <Table.Tr key={l.id ?? `line-${l.lineNo}`}>
                    <Table.Td>
                      {l.lineNo ?? (
                        <Text size="sm" c="dimmed">
                          books
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{l.occurredAt.slice(0, 19).replace('T', ' ')}</Table.Td>
                    <Table.Td>{l.accountId}</Table.Td>
                    <Table.Td style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
                      {l.direction === 'OUT' ? '−' : '+'}
                      {money(l.amount, l.currency)}
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
                        {l.reference}
                      </Text>
                      {l.counterparty && (
                        <Text size="xs" c="dimmed" ff="monospace" mt={2} style={{ whiteSpace: 'nowrap' }}>
                          {counterpartyText(l.direction, l.counterparty)}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Badge color={OUTCOME[l.outcome].color} variant="light">
                        {OUTCOME[l.outcome].label}
                      </Badge>
                      {l.detail && (
                        <Text size="xs" c="dimmed" mt={4}>
                          {l.detail}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      {l.outcome === 'MATCHED' ? (
                        <Text size="sm" c="dimmed">
                          —
                        </Text>
                      ) : l.resolution === 'APPROVAL' ? (
                        <Stack gap={4} align="flex-start">
                          <Text size="sm" c="dimmed">
                            Correction asked by {l.resolvedBy}: {l.resolutionReason}
                          </Text>
                          <Anchor component={Link} to={`/approvals?status=${l.approvalStatus ?? 'PENDING'}`} size="sm">
                            Approval {(l.approvalStatus ?? 'PENDING').toLowerCase()}
                          </Anchor>
                          {l.open && canResolve && (
                            <Button
                              size="xs"
                              onClick={() => setActing(l)}
                              aria-label={`Resolve line ${l.lineNo ?? l.reference}`}
                            >
                              Resolve again
                            </Button>
                          )}
                        </Stack>
                      ) : l.resolvedAt ? (
                        <Text size="sm" c="dimmed">
                          {l.resolution === 'MATCH' ? 'Matched' : 'Accepted'} by {l.resolvedBy}: {l.resolutionReason}
                        </Text>
                      ) : canResolve ? (
                        <Button
                          size="xs"
                          onClick={() => setActing(l)}
                          aria-label={`Resolve line ${l.lineNo ?? l.reference}`}
                        >
                          Resolve
                        </Button>
                      ) : (
                        <Text size="sm" c="dimmed">
                          Waiting for staff who may resolve it
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
      <Group justify="flex-end" mt="sm" gap="xs">
        {after && (
          <Button variant="default" size="xs" onClick={() => setAfter(null)}>
            First page
          </Button>
        )}
        {detail.data.next && (
          <Button variant="default" size="xs" onClick={() => setAfter(detail.data.next)}>
            Next page
          </Button>
        )}
      </Group>
      {acting && <ResolveLineDialog key={acting.id} line={acting} onClose={() => setActing(null)} />}
    </Paper>
  );
}

const RESOLUTION_LABEL: Record<StatementResolution, string> = {
  MATCH: 'Match',
  ACCEPT: 'Accept',
  APPROVAL: 'Ask for approval',
};

/**
 * Resolve one exception: match it by hand to what it is, accept the difference, or, when the books are wrong, ask for
 * a correction of the invoice behind it (a status or an amount) that a second person approves; a reason each time.
 */
function ResolveLineDialog({ line, onClose }: { line: StatementLineItem; onClose: () => void }) {
  const resolve = useResolveStatementLine();
  const money = useMoney();
  const currencies = useCurrencies();
  const currency = currencies.data?.find((c) => c.code === line.currency);
  const canMatch = line.lineNo !== null;
  // a correction needs the invoice behind the line: its incoming payment or its payout
  const canCorrect = (line.incomingId ?? line.transactionId) !== null;
  const [resolution, setResolution] = useState<StatementResolution>(canMatch ? 'MATCH' : 'ACCEPT');
  const [target, setTarget] = useState((line.direction === 'IN' ? line.incomingId : line.transactionId) ?? '');
  const [correction, setCorrection] = useState<'status' | 'amount'>('status');
  const [statusId, setStatusId] = useState<string | null>(null);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const what = line.direction === 'IN' ? 'Incoming payment id' : 'Payout transaction id';
  const amountMinor = currency && amount ? majorStringToMinorDigits(amount, currency.dimension) : null;
  const targetOk =
    resolution === 'ACCEPT' ||
    (resolution === 'MATCH' && /^[0-9a-f-]{36}$/i.test(target.trim())) ||
    (resolution === 'APPROVAL' &&
      (correction === 'status' ? statusId !== null : amountMinor !== null && Number(amountMinor) > 0));
  const ok = reason.trim().length >= 3 && targetOk;
  return (
    <Modal
      opened
      onClose={onClose}
      title={`Resolve ${line.lineNo ? `line ${line.lineNo}` : 'a books-only entry'}`}
      centered
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!ok) return;
          resolve.mutate(
            {
              // only an exception opens this dialog: it has its id
              id: line.id!,
              resolution,
              reason: reason.trim(),
              ...(resolution === 'MATCH'
                ? line.direction === 'IN'
                  ? { incomingId: target.trim() }
                  : { transactionId: target.trim() }
                : {}),
              ...(resolution === 'APPROVAL'
                ? correction === 'status'
                  ? { statusId: Number(statusId) }
                  : { amount: Number(amountMinor) }
                : {}),
            },
            {
              onSuccess: () => {
                toast.success(
                  resolution === 'MATCH'
                    ? 'Line matched by hand'
                    : resolution === 'ACCEPT'
                      ? 'Difference accepted'
                      : 'Correction asked for: it waits for another person’s approval',
                );
                onClose();
              },
              onError: (err) => toast.error(actionErrorMessage(err, 'The line could not be resolved')),
            },
          );
        }}
      >
        <Stack>
          <Text size="sm">
            {OUTCOME[line.outcome].label}: {line.direction === 'IN' ? 'in' : 'out'} {money(line.amount, line.currency)}{' '}
            on account {line.accountId}, reference <code>{line.reference}</code>
            {line.counterparty && (
              <>
                , {line.direction === 'OUT' ? 'paid to' : 'paid by'} <code>{line.counterparty}</code>
              </>
            )}
            {line.detail ? ` (${line.detail})` : ''}.{' '}
            {resolution === 'APPROVAL'
              ? 'The invoice behind the line is corrected once another person approves.'
              : 'Nothing moves on the books.'}
          </Text>
          {(canMatch || canCorrect) && (
            <SegmentedControl
              aria-label="Resolution"
              value={resolution}
              onChange={(v) => setResolution(v as StatementResolution)}
              data={[
                ...(canMatch ? [{ value: 'MATCH', label: 'Match by hand' }] : []),
                { value: 'ACCEPT', label: 'Accept' },
                ...(canCorrect ? [{ value: 'APPROVAL', label: 'Correct the books' }] : []),
              ]}
            />
          )}
          {resolution === 'APPROVAL' && (
            <>
              <SegmentedControl
                aria-label="Correction"
                value={correction}
                onChange={(v) => setCorrection(v as 'status' | 'amount')}
                data={[
                  { value: 'status', label: 'Status' },
                  { value: 'amount', label: 'Amount' },
                ]}
              />
              {correction === 'status' ? (
                <Select
                  label="The invoice's status should be"
                  data={INVOICE_STATUSES.map((st) => ({ value: String(st.id), label: st.value }))}
                  value={statusId}
                  onChange={setStatusId}
                  required
                />
              ) : currency ? (
                <MoneyInput
                  label="The invoice's amount should be"
                  currency={currency}
                  value={amount}
                  onChange={setAmount}
                  required
                />
              ) : null}
            </>
          )}
          {resolution === 'MATCH' && (
            <TextInput
              label={what}
              description={
                line.direction === 'IN'
                  ? 'The incoming payment this line is (Unmatched money tab, the payment’s id)'
                  : 'The payout transaction this line is (the invoice’s provider transactions)'
              }
              value={target}
              onChange={(e) => setTarget(e.currentTarget.value)}
              error={target.trim() && !targetOk ? 'An id looks like 8-4-4-4-12 hexadecimal characters' : undefined}
              required
            />
          )}
          <Textarea
            label="Reason"
            description="Recorded in the audit trail (at least 3 characters)"
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            autosize
            minRows={2}
            maxLength={500}
            required
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!ok} loading={resolve.isPending}>
              {RESOLUTION_LABEL[resolution]}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
