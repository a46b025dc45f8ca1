import { Suspense, lazy, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Badge, Button, Center, Group, Paper, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconFilter, IconSearch } from '@tabler/icons-react';
import { INVOICE_CSV_FILENAME, INVOICE_PAGE_SIZES, INVOICE_SEARCH_MAX } from '@paydesk/contracts/invoice-list';
import type { SavedView } from '@paydesk/contracts/saved-views';
import { CsvButton } from '../../../components/csv-button';
import { Pager, type PositionPaging } from '../../../components/pager';
import { PageTitle } from '../../../components/page-title';
import { SectionLoader } from '../../../components/full-page-loader';
import { hasPermission } from '@paydesk/contracts/permissions';
import { financeQuery, type FinanceKind } from '../../../lib/finance';
import { useFirstPaintHold } from '../../../lib/first-paint';
import { formatCount } from '../../../lib/format';
import { currenciesQuery } from '../../../lib/references';
import type { ScreenPrefetch } from '../../../lib/screen-prefetch';
import { useCan } from '../../../lib/session';
import { selectedTerminalStore, terminalsQuery, useSelectedTerminal } from '../../../lib/terminals';
import { invoiceListQuery, useInvoiceList } from '../api/invoice-list';
import { savedViewsQuery } from '../api/saved-views';
import { ExactCount } from '../components/exact-count';
import { FinanceStrip } from '../components/finance-strip';
import { InvoiceTable } from '../components/invoice-table';
import { SavedViewsBar, SaveViewButton } from '../components/saved-views';
import {
  activeFilterCount,
  byPosition,
  changeListState,
  parseListState,
  positionRange,
  toQuery,
  toSearchParams,
  type InvoiceFilters,
  type ListState,
} from '../model/list-state';

const SEARCH_DEBOUNCE_MS = 400;

// with the date pickers and number inputs: loaded when the Filter button is about to be used, not with the list
const loadFilterDialog = () => import('../components/filter-dialog');
const FilterDialog = lazy(() => loadFilterDialog().then((m) => ({ default: m.FilterDialog })));
const preloadFilterDialog = () => void loadFilterDialog().catch(() => undefined);
const INVOICE_CSV = { path: '/api/v1/invoice/csv', filename: INVOICE_CSV_FILENAME };

/**
 * The list's state lives in the URL. The terminal chosen in the top bar and the URL's terminalId
 * are kept equal: a bookmarked URL selects its terminal on arrival, and picking a terminal in the
 * top bar rewrites the URL (back to page 0). Past the numbered pages the URL holds the position (after/before
 * cursor): each step is a history entry (Back returns to the page before), and any other change leaves it.
 */
function useListState(): [ListState, (next: Partial<ListState>) => void, (terminalId: string) => void] {
  const [sp, setSp] = useSearchParams();
  const [terminalId, setTerminalId] = useSelectedTerminal();
  const state = useMemo(() => parseListState(sp), [sp]);
  const arrived = useRef(false);

  const update = useMemo(
    () => (next: Partial<ListState>) => setSp((prev) => toSearchParams(changeListState(parseListState(prev), next))),
    [setSp],
  );

  useEffect(() => {
    if (!arrived.current) {
      arrived.current = true;
      if (sp.has('terminalId') && state.terminalId !== terminalId) {
        setTerminalId(state.terminalId);
        return;
      }
    }
    // a stale run (the store already moved on) must not write an old terminal back
    if (selectedTerminalStore.get() !== terminalId && terminalId !== '') return;
    if (state.terminalId !== terminalId) {
      setSp((prev) => toSearchParams(changeListState(parseListState(prev), { terminalId, page: 0 })), {
        replace: true,
      });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [terminalId]);

  const effectiveTerminal = sp.has('terminalId') ? state.terminalId : terminalId;
  // the same object while nothing changes, so that the memoised parts of the screen are not redrawn
  const listState = useMemo(() => ({ ...state, terminalId: effectiveTerminal }), [state, effectiveTerminal]);
  return [listState, update, setTerminalId];
}

export default function InvoicesPage() {
  const canSeeFinance = useCan('merchant.read.finance');
  const canSearchProvider = useCan('invoice.provider.read');
  const [state, update, selectTerminal] = useListState();
  const [filterOpen, setFilterOpen] = useState(false);
  // mounted from the first opening on, so that it closes with its transition like any dialog
  const [filterUsed, setFilterUsed] = useState(false);
  const [searchText, setSearchText] = useState(state.search);
  const query = useMemo(() => toQuery(state), [state]);
  const { data: latest, isPending, isError, error, isPlaceholderData } = useInvoiceList(query);
  // a page of rows is built in a background render that React splits into short slices (the table is memoised,
  // so the render the answer itself causes is cheap); until then the previous page, or the loader, stays
  const data = useDeferredValue(latest);
  // the rows on screen are not yet those of the page the address names: the answer is on its way (the previous
  // page's rows stay meanwhile), or has come and is being built
  const stale = isPlaceholderData || data !== latest;
  // the screen is first shown with its rows (see lib/first-paint.ts)
  useFirstPaintHold(isError || data !== undefined);

  // the URL may change under us (back/forward): follow it
  useEffect(() => setSearchText(state.search), [state.search]);
  const applySearch = useDebouncedCallback(
    (text: string) => update({ search: text.trim(), page: 0 }),
    SEARCH_DEBOUNCE_MS,
  );

  const csvQuery = useMemo(() => toQuery(state, false), [state]);
  const openView = useCallback((v: SavedView) => selectTerminal(v.state.terminalId ?? ''), [selectTerminal]);
  const setSize = useCallback((size: number) => update({ size, page: 0 }), [update]);
  const setPage = useCallback((page: number) => update({ page }), [update]);

  // past the numbered pages of a capped total: by position (keyset), from the page the address names, once its
  // answer is in (never the previous page's cursors, which a quick click would follow to the wrong rows)
  const positioned = byPosition(state);
  const current = isPlaceholderData ? undefined : latest;
  const nextCursor = current?.nextCursor ?? null;
  const prevCursor = current?.prevCursor ?? null;
  const pastLast = useMemo(
    () => (!positioned && current?.totalIsCapped && nextCursor ? () => update({ after: nextCursor }) : null),
    [positioned, current?.totalIsCapped, nextCursor, update],
  );
  const position: PositionPaging | null = useMemo(
    () =>
      positioned
        ? {
            onFirst: () => update({ page: 0 }),
            onNewer: prevCursor ? () => update({ before: prevCursor }) : null,
            onOlder: nextCursor ? () => update({ after: nextCursor }) : null,
          }
        : null,
    [positioned, prevCursor, nextCursor, update],
  );

  const filters: InvoiceFilters = state;
  const nFilters = activeFilterCount(filters);
  const pages = data ? Math.max(1, Math.ceil(data.total / state.size)) : 1;
  const first = data && data.data.length ? state.page * state.size + 1 : 0;
  const last = data ? state.page * state.size + data.data.length : 0;
  const totalLabel = data ? (data.totalIsCapped ? `${formatCount(data.total)}+` : formatCount(data.total)) : '';
  const capped = Boolean(data?.totalIsCapped);
  const exactCount = useMemo(() => (capped ? <ExactCount filters={csvQuery} /> : null), [capped, csvQuery]);
  const range = !data
    ? ''
    : positioned
      ? positionRange(data.data)
      : `${formatCount(first)}–${formatCount(last)} of ${totalLabel}`;

  return (
    <>
      <PageTitle title="Transactions" />
      {canSeeFinance && <FinanceStrip terminalId={state.terminalId} />}

      <Paper withBorder radius="md" p="md">
        <Group justify="space-between" mb="md" wrap="wrap" gap="sm">
          <TextInput
            aria-label="Search"
            // what the search matches (provider ids only for who may read them), short enough for the field
            placeholder={
              canSearchProvider
                ? 'Search invoice, merchant, provider or user ID'
                : 'Search invoice, merchant or user ID'
            }
            leftSection={<IconSearch size={16} aria-hidden />}
            value={searchText}
            maxLength={INVOICE_SEARCH_MAX}
            onChange={(e) => {
              setSearchText(e.currentTarget.value);
              applySearch(e.currentTarget.value);
            }}
            w={{ base: '100%', sm: 420 }}
          />
          <Group gap="sm">
            <Button
              variant="default"
              leftSection={<IconFilter size={16} aria-hidden />}
              rightSection={
                nFilters ? (
                  <Badge size="sm" circle>
                    {nFilters}
                  </Badge>
                ) : null
              }
              onPointerEnter={preloadFilterDialog}
              onFocus={preloadFilterDialog}
              onClick={() => {
                setFilterUsed(true);
                setFilterOpen(true);
              }}
            >
              Filter
            </Button>
            <SaveViewButton state={state} />
            <CsvButton source={INVOICE_CSV} query={csvQuery} label="Report" />
          </Group>
        </Group>

        <SavedViewsBar state={state} onOpen={openView} />

        {isError ? (
          <Alert color="red" title="Could not load transactions">
            {error.message}
          </Alert>
        ) : isPending || !data ? (
          <SectionLoader label="Loading transactions" />
        ) : data.data.length === 0 ? (
          <Center py="xl">
            <Text c="dimmed">Nothing found</Text>
          </Center>
        ) : (
          <div style={{ opacity: stale ? 0.6 : 1 }} aria-busy={stale}>
            <InvoiceTable rows={data.data} />
          </div>
        )}

        <Pager
          range={range}
          rangeTestId="invoice-range"
          aside={exactCount}
          sizes={INVOICE_PAGE_SIZES}
          size={state.size}
          page={state.page}
          pages={pages}
          onSize={setSize}
          onPage={setPage}
          onPastLast={pastLast}
          position={position}
        />
      </Paper>

      {filterUsed && (
        <Suspense fallback={null}>
          <FilterDialog
            opened={filterOpen}
            value={filters}
            onClose={() => setFilterOpen(false)}
            onApply={(f) => {
              setFilterOpen(false);
              update({ ...f, page: 0 });
            }}
          />
        </Suspense>
      )}
    </>
  );
}

const FINANCE_KINDS: FinanceKind[] = ['balance', 'deposit', 'withdrawal'];

/**
 * The list's first calls, asked for while the screen is being built: the page of the address (with the
 * address's terminal, or all terminals), its finance tiles (live book) and saved views. With a remembered terminal
 * that the terminals list has yet to confirm, the list and the tiles wait for the screen.
 */
export const prefetch: ScreenPrefetch = ({ queryClient, me, merchantId, search }) => {
  void queryClient.prefetchQuery(savedViewsQuery(merchantId));
  if (!search.has('terminalId') && selectedTerminalStore.get() !== '') return;
  const state = parseListState(search);
  void queryClient.prefetchQuery(invoiceListQuery(merchantId, toQuery(state)));
  if (state.terminalId === '' && hasPermission(me.permissions, 'merchant.read.finance')) {
    void queryClient.prefetchQuery(currenciesQuery);
    for (const kind of FINANCE_KINDS) void queryClient.prefetchQuery(financeQuery(merchantId, kind, '', 'live'));
    // with test terminals, the tiles show the test book too: asked for as soon as the terminals are known (the
    // layout's call), not when the tiles have been drawn with them
    queryClient.fetchQuery(terminalsQuery(merchantId)).then(
      (terminals) => {
        if (terminals.some((t) => t.isTest))
          for (const kind of FINANCE_KINDS) void queryClient.prefetchQuery(financeQuery(merchantId, kind, '', 'test'));
      },
      () => undefined,
    );
  }
};
