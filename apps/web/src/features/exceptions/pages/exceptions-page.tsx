import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  Group,
  Paper,
  SegmentedControl,
  Stack,
  Table,
  Tabs,
  Text,
} from '@mantine/core';
import type { ContradictionItem, ExceptionCsvQueue, ExceptionQueue, StuckKind } from '@paydesk/contracts/exceptions';
import { actionErrorMessage } from '../../../lib/api';
import { PAGES } from '../../../lib/pages';
import { useCan } from '../../../lib/session';
import { PageTitle } from '../../../components/page-title';
import { CsvButton } from '../../../components/csv-button';
import { SectionLoader } from '../../../components/full-page-loader';
import { toast } from '../../../components/toast';
import { lastMoneyText, paidOfGiven, successRateText, useAccountHealth } from '../../../lib/account-health';
import {
  useContradictions,
  useExceptionSummary,
  useIncomingList,
  useResolveContradiction,
  useResumeAccount,
  useStuckList,
} from '../api/exceptions';
import { PauseRule } from '../components/pause-rule';
import { ReasonDialog } from '../components/reason-dialog';
import { ResolveIncomingDialog } from '../components/resolve-incoming-dialog';
import { StatementsQueue } from '../components/statements-queue';
import { useMoney } from '../components/money';
import { ClearFiltersButton, MerchantFilter, UnmatchedFilters } from '../components/desk-filters';
import {
  NO_FILTERS,
  deskFilterQuery,
  formatAge,
  hasDeskFilters,
  parseDeskState,
  toDeskSearchParams,
  withFilters,
  type DeskFilters,
  type DeskState,
  type DeskTab,
} from '../model/desk';

const TABS: { tab: DeskTab; label: string; queue: ExceptionQueue }[] = [
  { tab: 'unmatched', label: 'Unmatched money', queue: 'unmatched' },
  { tab: 'payed', label: 'Waiting for money', queue: 'payedStuck' },
  { tab: 'payouts', label: 'Payouts with provider', queue: 'payoutStuck' },
  { tab: 'callbacks', label: 'Failed callbacks', queue: 'callbacksFailed' },
  { tab: 'contradictions', label: 'Contradictions', queue: 'contradictions' },
  { tab: 'paused', label: 'Paused accounts', queue: 'pausedAccounts' },
  { tab: 'statements', label: 'Statements', queue: 'statementExceptions' },
];
const STUCK_OF: Partial<Record<DeskTab, StuckKind>> = { payed: 'PAYED', payouts: 'PAYOUT', callbacks: 'CALLBACK' };
/** The queue a tab downloads as CSV (what waits now, oldest first). */
const CSV_QUEUE: Partial<Record<DeskTab, ExceptionCsvQueue>> = {
  unmatched: 'unmatched',
  ...STUCK_OF,
  contradictions: 'contradictions',
  paused: 'paused',
};

/** The operations desk (exceptions.read): every payment that needs a person, one queue per tab. */
export default function ExceptionsPage() {
  const [sp, setSp] = useSearchParams();
  const state = useMemo(() => parseDeskState(sp), [sp]);
  // The URL updates asynchronously: a second change before it lands (a typed amount applying right after a picked
  // account) builds on the first, not on the URL it replaces.
  const pending = useRef<DeskState | null>(null);
  useEffect(() => {
    pending.current = null;
  }, [sp]);
  const update: Update = (next) => {
    const base = pending.current ?? state;
    const merged = typeof next === 'function' ? next(base) : { ...base, ...next };
    pending.current = merged;
    setSp(toDeskSearchParams(merged));
  };
  const summary = useExceptionSummary();
  const count = (q: ExceptionQueue) => summary.data?.find((s) => s.queue === q)?.count;
  const stuck = STUCK_OF[state.tab];
  // the paused accounts' file holds provider accounts: for those who may view them, as the tab's list is
  const canReadAccounts = useCan('people.account');
  const csvQueue = state.tab === 'paused' && !canReadAccounts ? undefined : CSV_QUEUE[state.tab];
  return (
    <>
      <PageTitle title="Exceptions">
        {csvQueue && (
          <CsvButton
            source={{
              path: '/api/v1/exceptions/csv',
              filename: `Exceptions-${csvQueue}.csv`,
              scoped: false,
            }}
            query={{ queue: csvQueue, ...deskFilterQuery(state) }}
            label="Download CSV"
          />
        )}
      </PageTitle>
      <Paper withBorder radius="md" p="md">
        <Tabs
          value={state.tab}
          onChange={(tab) => tab && update({ tab: tab as DeskTab, after: null })}
          keepMounted={false}
        >
          <Tabs.List mb="md">
            {TABS.map((t) => (
              <Tabs.Tab
                key={t.tab}
                value={t.tab}
                rightSection={
                  count(t.queue) ? (
                    <Badge
                      size="sm"
                      variant="filled"
                      color={t.queue === 'unmatched' || t.queue === 'contradictions' ? 'red' : 'orange'}
                      aria-label={`${count(t.queue)} waiting`}
                    >
                      {count(t.queue)}
                    </Badge>
                  ) : null
                }
              >
                {t.label}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {state.tab === 'unmatched' && <UnmatchedQueue state={state} update={update} />}
          {stuck && <StuckQueue kind={stuck} state={state} update={update} />}
          {state.tab === 'contradictions' && <ContradictionQueue state={state} update={update} />}
          {state.tab === 'paused' && <PausedAccounts />}
          {state.tab === 'statements' && <StatementsQueue />}
        </Tabs>
      </Paper>
    </>
  );
}

/** A change of the desk's state: the values that change, or the next state made from the latest one. */
type Update = (next: Partial<DeskState> | ((latest: DeskState) => DeskState)) => void;
type QueueProps = { state: DeskState; update: Update };

/** A change of the tab's filters (from the first page again), or all of them cleared. */
const filterUpdate = (update: Update) => ({
  setFilters: (next: Partial<DeskFilters>) => update((latest) => withFilters(latest, next)),
  clearFilters: () => update((latest) => withFilters(latest, NO_FILTERS)),
});

/** The list's state: loading, failed, empty, or the table with its next-page link. */
function QueueBody({
  what,
  query,
  empty,
  next,
  state,
  update,
  children,
}: {
  what: string;
  query: { isPending: boolean; isError: boolean; error: Error | null; isPlaceholderData: boolean };
  empty: boolean;
  next: string | null | undefined;
  children: ReactNode;
  /** only its page matters here */
  state: Partial<DeskState>;
  update: QueueProps['update'];
}) {
  if (query.isPending) return <SectionLoader label={`Loading ${what}`} />;
  if (query.isError)
    return (
      <Alert color="red" title={`Could not load ${what}`}>
        {query.error?.message}
      </Alert>
    );
  return (
    <>
      {empty ? (
        <Center py="xl">
          <Text c="dimmed">Nothing waiting here.</Text>
        </Center>
      ) : (
        <div style={{ opacity: query.isPlaceholderData ? 0.6 : 1 }} aria-busy={query.isPlaceholderData}>
          {children}
        </div>
      )}
      <Group justify="flex-end" mt="md" gap="xs">
        {state.after && (
          <Button variant="default" size="xs" onClick={() => update({ after: null })}>
            First page
          </Button>
        )}
        {next && (
          <Button variant="default" size="xs" onClick={() => update({ after: next })}>
            Next page
          </Button>
        )}
      </Group>
    </>
  );
}

function UnmatchedQueue({ state, update }: QueueProps) {
  const list = useIncomingList({
    ...(state.status === 'ALL' ? {} : { status: state.status }),
    ...deskFilterQuery(state),
    ...(state.after ? { after: state.after } : {}),
  });
  const { setFilters, clearFilters } = filterUpdate(update);
  const money = useMoney();
  const canResolve = useCan('incoming.resolve');
  const [open, setOpen] = useState<string | null>(null);
  const now = Date.now();
  // the queue of work to do: every row is unmatched, so its status goes without saying
  const toResolve = state.status === 'UNMATCHED';
  return (
    <>
      <Group justify="space-between" gap="sm" mb="sm">
        <SegmentedControl
          aria-label="Which payments"
          value={state.status}
          onChange={(v) => update({ status: v as DeskState['status'], after: null })}
          data={[
            { value: 'UNMATCHED', label: 'To resolve' },
            { value: 'MATCHED', label: 'Matched' },
            { value: 'RETURNED', label: 'Returned' },
            { value: 'ALL', label: 'All' },
          ]}
        />
        {hasDeskFilters(state) && <ClearFiltersButton onClear={clearFilters} />}
      </Group>
      <div style={{ marginBottom: 'var(--mantine-spacing-md)' }}>
        <UnmatchedFilters value={state} onChange={setFilters} />
      </div>
      <QueueBody
        what="unmatched money"
        query={list}
        empty={!list.data?.data.length}
        next={list.data?.next}
        state={state}
        update={update}
      >
        <Table.ScrollContainer minWidth={720}>
          <Table verticalSpacing="sm" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Age</Table.Th>
                <Table.Th>Account</Table.Th>
                <Table.Th style={{ textAlign: 'right' }}>Amount</Table.Th>
                <Table.Th>Reference</Table.Th>
                {!toResolve && <Table.Th>Status</Table.Th>}
                <Table.Th>Next step</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data?.data.map((r) => (
                <Table.Tr key={r.id}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatAge(r.createdAt, now)}</Table.Td>
                  <Table.Td>
                    {r.accountId} · {r.providerName}
                    {r.book === 'test' && (
                      <Badge ml={6} size="xs" variant="outline" color="gray">
                        Test
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
                    {money(r.amount, r.currency)}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" ff="monospace">
                      {r.reference}
                    </Text>
                  </Table.Td>
                  {!toResolve && (
                    <Table.Td>
                      {r.status === 'MATCHED' && r.matchedInvoiceId ? (
                        <Anchor component={Link} to={PAGES.InvoiceDetails(r.matchedInvoiceId)}>
                          Matched
                        </Anchor>
                      ) : r.status === 'RETURNED' ? (
                        `Returned (${r.returnReference})`
                      ) : (
                        'Unmatched'
                      )}
                    </Table.Td>
                  )}
                  <Table.Td>
                    {r.status === 'UNMATCHED' && canResolve ? (
                      <Button size="xs" onClick={() => setOpen(r.id)} aria-label={`Match or return ${r.reference}`}>
                        Match or return
                      </Button>
                    ) : r.status === 'UNMATCHED' ? (
                      <Text size="sm" c="dimmed">
                        Waiting for staff who may resolve it
                      </Text>
                    ) : (
                      <Text size="sm" c="dimmed">
                        {r.resolvedBy ? `by ${r.resolvedBy}` : 'on arrival'}
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </QueueBody>
      <ResolveIncomingDialog id={open} onClose={() => setOpen(null)} />
    </>
  );
}

function StuckQueue({ kind, state, update }: QueueProps & { kind: StuckKind }) {
  const list = useStuckList(kind, { ...deskFilterQuery(state), ...(state.after ? { after: state.after } : {}) });
  const money = useMoney();
  const now = Date.now();
  const { setFilters, clearFilters } = filterUpdate(update);
  return (
    <>
      <Group align="flex-end" gap="sm" mb="md">
        <MerchantFilter value={state} onChange={setFilters} />
        {hasDeskFilters(state) && <ClearFiltersButton onClear={clearFilters} />}
      </Group>
      <QueueBody
        what="the queue"
        query={list}
        empty={!list.data?.data.length}
        next={list.data?.next}
        state={state}
        update={update}
      >
        <Table.ScrollContainer minWidth={720}>
          <Table verticalSpacing="sm" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Age</Table.Th>
                <Table.Th>Merchant</Table.Th>
                <Table.Th>Invoice</Table.Th>
                <Table.Th style={{ textAlign: 'right' }}>Amount</Table.Th>
                <Table.Th>Waiting for</Table.Th>
                <Table.Th>Next step</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data?.data.map((r) => (
                <Table.Tr key={r.invoiceId}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatAge(r.since, now)}</Table.Td>
                  <Table.Td>{r.merchantName}</Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={PAGES.InvoiceDetails(r.invoiceId)}>
                      {r.merchantInvoiceId}
                    </Anchor>
                  </Table.Td>
                  <Table.Td style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
                    {money(r.amount, r.currency)}
                  </Table.Td>
                  <Table.Td>{r.detail}</Table.Td>
                  <Table.Td>
                    <Text size="sm">{r.nextStep}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </QueueBody>
    </>
  );
}

const ACCOUNT_WORDS: Record<string, string> = {
  merchant: "merchant's balance",
  merchant_hold: 'held for payouts',
  provider_account: 'provider account',
  fees: 'fees',
  suspense: 'suspense',
};

/** What accepting the provider's answer posts, one line per account: "merchant's balance +1,000.00 UZS", … */
function effectLines(c: ContradictionItem, money: ReturnType<typeof useMoney>) {
  // liabilities (the merchant's balance, its held funds) read with the merchant's sign: a credit is money for them
  return c.effect.map((l) => {
    const shown = l.account === 'merchant' || l.account === 'merchant_hold' ? -l.amount : l.amount;
    return `${ACCOUNT_WORDS[l.account] ?? l.account} ${shown > 0 ? '+' : '−'}${money(Math.abs(shown), c.currency)}`;
  });
}

/** The same in one sentence: "merchant's balance +1,000.00 UZS; provider account …". */
const effectText = (c: ContradictionItem, money: ReturnType<typeof useMoney>) => effectLines(c, money).join('; ');

function ContradictionQueue({ state, update }: QueueProps) {
  const list = useContradictions({ status: 'OPEN', ...(state.after ? { after: state.after } : {}) });
  const money = useMoney();
  const canResolve = useCan('invoice.status.change');
  const resolve = useResolveContradiction();
  const [acting, setActing] = useState<{
    item: ContradictionItem;
    resolution: 'ACCEPT_PROVIDER' | 'KEEP_BOOKS';
  } | null>(null);
  const now = Date.now();
  return (
    <>
      <QueueBody
        what="contradictions"
        query={list}
        empty={!list.data?.data.length}
        next={list.data?.next}
        state={state}
        update={update}
      >
        <Table.ScrollContainer minWidth={820}>
          <Table verticalSpacing="sm" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Age</Table.Th>
                <Table.Th>Merchant</Table.Th>
                <Table.Th>Invoice</Table.Th>
                <Table.Th style={{ textAlign: 'right' }}>Amount</Table.Th>
                <Table.Th>Books say / provider says</Table.Th>
                <Table.Th>If the provider is right</Table.Th>
                <Table.Th>Next step</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data?.data.map((c) => (
                <Table.Tr key={c.id}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatAge(c.createdAt, now)}</Table.Td>
                  <Table.Td>{c.merchantName}</Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={PAGES.InvoiceDetails(c.invoiceId)}>
                      {c.merchantInvoiceId}
                    </Anchor>
                    <Text size="xs" c="dimmed">
                      {c.flowType === 'DEPOSIT' ? 'Deposit' : 'Withdrawal'}
                    </Text>
                  </Table.Td>
                  <Table.Td style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
                    {money(c.amount, c.currency)}
                  </Table.Td>
                  <Table.Td>
                    {c.invoiceStatus} / {c.providerStatus}
                    {c.note && (
                      <Text size="xs" c="dimmed">
                        {c.note}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {c.effect.length ? (
                      effectLines(c, money).map((line) => (
                        <Text key={line} size="sm" style={{ whiteSpace: 'nowrap' }}>
                          {line}
                        </Text>
                      ))
                    ) : (
                      <Text size="sm">nothing moves</Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {canResolve ? (
                      <Stack gap={6} align="stretch" w="max-content">
                        <Button size="xs" onClick={() => setActing({ item: c, resolution: 'ACCEPT_PROVIDER' })}>
                          Accept provider
                        </Button>
                        <Button
                          size="xs"
                          variant="default"
                          onClick={() => setActing({ item: c, resolution: 'KEEP_BOOKS' })}
                        >
                          Keep books
                        </Button>
                      </Stack>
                    ) : (
                      <Text size="sm" c="dimmed">
                        For staff who change invoice statuses
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </QueueBody>
      <ReasonDialog
        key={acting ? `${acting.item.id}-${acting.resolution}` : 'none'}
        opened={acting !== null}
        title={acting?.resolution === 'ACCEPT_PROVIDER' ? "Accept the provider's answer" : 'Keep the books'}
        confirmLabel={acting?.resolution === 'ACCEPT_PROVIDER' ? `Set ${acting.item.providerStatus}` : 'Keep the books'}
        busy={resolve.isPending}
        onClose={() => setActing(null)}
        onConfirm={(reason) =>
          resolve.mutate(
            { id: acting!.item.id, resolution: acting!.resolution, reason },
            {
              onSuccess: () => {
                toast.success('Contradiction resolved');
                setActing(null);
              },
              onError: (e) => toast.error(actionErrorMessage(e, 'The contradiction could not be resolved')),
            },
          )
        }
      >
        {acting && (
          <Text size="sm">
            {acting.resolution === 'ACCEPT_PROVIDER'
              ? `The invoice becomes ${acting.item.providerStatus}: ${effectText(acting.item, money) || 'nothing moves'}.`
              : `The invoice stays ${acting.item.invoiceStatus}; the provider's ${acting.item.providerStatus} is kept on record.`}
          </Text>
        )}
      </ReasonDialog>
    </>
  );
}

/** Provider accounts routing skips, why and since when; staff who edit accounts give them back to routing. */
function PausedAccounts() {
  const canRead = useCan('people.account');
  const canResume = useCan('people.account.edit');
  const health = useAccountHealth(canRead);
  const resume = useResumeAccount();
  const [acting, setActing] = useState<number | null>(null);
  const now = Date.now();
  if (!canRead) {
    return (
      <Center py="xl">
        <Text c="dimmed">Your role does not allow you to view provider accounts.</Text>
      </Center>
    );
  }
  const paused = health.data?.filter((h) => h.pausedAt !== null) ?? [];
  return (
    <>
      <QueueBody
        what="paused accounts"
        query={{ ...health, isPlaceholderData: false }}
        empty={paused.length === 0}
        next={null}
        state={{ tab: 'paused', status: 'UNMATCHED', after: null }}
        update={() => undefined}
      >
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="sm" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Paused for</Table.Th>
                <Table.Th>Account</Table.Th>
                <Table.Th>Why</Table.Th>
                <Table.Th>Health</Table.Th>
                <Table.Th>Next step</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {paused.map((a) => (
                <Table.Tr key={a.accountId}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatAge(a.pausedAt!, now)}</Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={PAGES.AccountDetails(String(a.accountId))}>
                      {a.accountId} · {a.provider}
                    </Anchor>
                    <Text size="xs" c="dimmed">
                      {a.paymentMethod}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    {a.pausedReason}
                    <Text size="xs" c="dimmed">
                      by {a.pausedBy}
                    </Text>
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    {paidOfGiven(a)} in 24 h
                    <Text size="xs" c="dimmed">
                      success rate {successRateText(a)}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {a.lastMoneyAt === null ? 'no money reported yet' : `money ${lastMoneyText(a, now)}`}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    {canResume ? (
                      <Button
                        size="xs"
                        onClick={() => setActing(a.accountId)}
                        aria-label={`Resume account ${a.accountId}`}
                      >
                        Resume
                      </Button>
                    ) : (
                      <Text size="sm" c="dimmed">
                        For staff who edit accounts
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </QueueBody>
      <PauseRule />
      <ReasonDialog
        key={acting ?? 'none'}
        opened={acting !== null}
        title={`Resume account ${acting ?? ''}`}
        confirmLabel="Resume"
        busy={resume.isPending}
        onClose={() => setActing(null)}
        onConfirm={(reason) =>
          resume.mutate(
            { id: acting!, reason },
            {
              onSuccess: () => {
                toast.success(`Account ${acting} is back in routing`);
                setActing(null);
              },
              onError: (e) => toast.error(actionErrorMessage(e, 'The account could not be resumed')),
            },
          )
        }
      >
        <Text size="sm">
          Routing gives its requisites again; the health check judges only deposits given from now on.
        </Text>
      </ReasonDialog>
    </>
  );
}
