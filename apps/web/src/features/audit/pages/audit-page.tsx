import { useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Center, Paper, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { AUDIT_CSV_FILENAME, AUDIT_PAGE_SIZES } from '@paydesk/contracts/audit';
import { CsvButton } from '../../../components/csv-button';
import { Pager } from '../../../components/pager';
import { SectionLoader } from '../../../components/full-page-loader';
import { PageTitle } from '../../../components/page-title';
import { merchantsQuery } from '../../../lib/merchant';
import { useCan, useCurrentUser } from '../../../lib/session';
import { useAuditList } from '../api/audit-list';
import { AuditFiltersBar } from '../components/audit-filters-bar';
import { AuditTable } from '../components/audit-table';
import {
  parseAuditState,
  toAuditQuery,
  toAuditSearchParams,
  type AuditFilters,
  type AuditState,
} from '../model/audit-filters';

// Not scoped by the picker: the merchant filter is explicit (platform staff) or implied (merchant staff).
const AUDIT_CSV = { path: '/api/v1/audit/csv', filename: AUDIT_CSV_FILENAME, scoped: false };

/** Audit (audit.read): who did what, when, to what and why; merchant staff see their merchant's records only. */
export default function AuditPage() {
  const isPlatform = useCurrentUser().scope === 'platform';
  const canListMerchants = useCan('merchant.rw.all') && isPlatform;
  const merchants = useQuery({ ...merchantsQuery, enabled: canListMerchants });
  const [sp, setSp] = useSearchParams();
  const state = useMemo(() => parseAuditState(sp), [sp]);
  // The URL updates asynchronously: a second change before it lands (the actor's debounce firing
  // right after an action was picked) must build on the first, not on the URL it replaces.
  const pending = useRef<AuditState | null>(null);
  useEffect(() => {
    pending.current = null;
  }, [sp]);
  const update = (next: Partial<AuditState>) => {
    const merged = { ...(pending.current ?? state), ...next };
    pending.current = merged;
    setSp(toAuditSearchParams(merged));
  };
  const setFilters = (next: Partial<AuditFilters>) => update({ ...next, page: 0 });
  const { data, isPending, isError, error, isPlaceholderData } = useAuditList(toAuditQuery(state));

  const pages = data ? Math.max(1, Math.ceil(data.total / state.size)) : 1;
  const first = data && data.data.length ? state.page * state.size + 1 : 0;
  const last = data ? state.page * state.size + data.data.length : 0;

  return (
    <>
      <PageTitle title="Audit">
        <CsvButton source={AUDIT_CSV} query={toAuditQuery(state, false)} label="Download CSV" />
      </PageTitle>
      <Paper withBorder radius="md" p="md">
        <AuditFiltersBar
          value={state}
          onChange={setFilters}
          merchants={isPlatform ? (merchants.data?.data ?? []) : null}
        />

        <div style={{ marginTop: 'var(--mantine-spacing-md)' }}>
          {isPending ? (
            <SectionLoader label="Loading the audit trail" />
          ) : isError ? (
            <Alert color="red" title="Could not load the audit trail">
              {error.message}
            </Alert>
          ) : data.data.length === 0 ? (
            <Center py="xl">
              <Text c="dimmed">Nothing found</Text>
            </Center>
          ) : (
            <div style={{ opacity: isPlaceholderData ? 0.6 : 1 }} aria-busy={isPlaceholderData}>
              <AuditTable rows={data.data} showMerchant={isPlatform} />
            </div>
          )}
        </div>

        <Pager
          range={data ? `${first}–${last} of ${data.total.toLocaleString('en')}` : ''}
          rangeTestId="audit-range"
          sizes={AUDIT_PAGE_SIZES}
          size={state.size}
          page={state.page}
          pages={pages}
          onSize={(size) => update({ size, page: 0 })}
          onPage={(page) => update({ page })}
        />
      </Paper>
    </>
  );
}
