import '@mantine/charts/styles.css';
import { useState } from 'react';
import { Alert, Group, Paper, SegmentedControl, Tabs, Text } from '@mantine/core';
import { MONITORING_DEFAULT_PERIOD, MONITORING_PERIODS } from '@paydesk/contracts/monitoring';
import { formatUtcTime } from '@paydesk/contracts/dates';
import { PageTitle } from '../../../components/page-title';
import { SectionLoader } from '../../../components/full-page-loader';
import { useCurrentMerchantId } from '../../../lib/merchant';
import { useLedgerReconciliation, useStatisticMerchants, useTerminalStatistics } from '../api/statistics';
import { useCurrentUser } from '../../../lib/session';
import { TerminalStatsTable } from '../components/terminal-stats-table';
import { SuccessCharts } from '../components/success-charts';

// the back-office shows UTC everywhere, like the top-bar clock

function MerchantPanel({ merchantId, period, active }: { merchantId: string; period: number; active: boolean }) {
  const stats = useTerminalStatistics(merchantId, period, active);
  if (stats.isPending) return <SectionLoader label="Loading terminal statistics" />;
  if (stats.isError) {
    return (
      <Alert color="red" title="Could not load the statistics">
        {stats.error.message}
      </Alert>
    );
  }
  return (
    <>
      <Text size="xs" c="dimmed" mb="xs" aria-live="polite">
        Updated {formatUtcTime(stats.dataUpdatedAt, true)} UTC · refreshes every minute
      </Text>
      <TerminalStatsTable rows={stats.data} />
      <SuccessCharts rows={stats.data} />
    </>
  );
}

/** Platform staff see whether the books hold: any drift is an alert with the rows that differ. */
function LedgerHealth() {
  const r = useLedgerReconciliation(true);
  if (!r.data) return null;
  const { drift, unbalanced, checkedAt } = r.data;
  const at = formatUtcTime(checkedAt, true);
  if (!drift.length && !unbalanced.length) {
    return (
      <Text size="sm" c="dimmed" mb="md" data-testid="ledger-health">
        Ledger reconciled at {at} UTC: every balance equals its entries and every book sums to zero.
      </Text>
    );
  }
  return (
    <Alert color="red" mb="md" title="The ledger does not reconcile" data-testid="ledger-health">
      {unbalanced.map((u) => (
        <div key={`${u.book}:${u.currencyId}`}>
          The {u.book} book of currency {u.currencyId} sums to {u.total}, not zero.
        </div>
      ))}
      {drift.map((d) => (
        <div key={d.key}>
          Balance {d.key} is {d.balance}; its entries sum to {d.entries}.
        </div>
      ))}
      <div>Checked at {at} UTC.</div>
    </Alert>
  );
}

/** Monitoring: a tab per merchant, a period choice, per-terminal outcome table refreshed every 60 s. */
export default function MonitoringPage() {
  const merchants = useStatisticMerchants();
  const current = useCurrentMerchantId();
  const [period, setPeriod] = useState(MONITORING_DEFAULT_PERIOD);
  const [tab, setTab] = useState<string | null>(null);
  const platform = useCurrentUser().scope === 'platform';

  const list = merchants.data ?? [];
  const activeTab =
    tab && list.some((m) => m.merchantId === tab)
      ? tab
      : (list.find((m) => m.merchantId === current)?.merchantId ?? list[0]?.merchantId ?? null);

  return (
    <>
      <PageTitle title="Monitoring">
        <Group gap="xs">
          <Text size="sm" c="dimmed" id="monitoring-period-label">
            Period
          </Text>
          <SegmentedControl
            aria-labelledby="monitoring-period-label"
            value={String(period)}
            onChange={(v) => setPeriod(Number(v))}
            data={MONITORING_PERIODS.map((p) => ({ value: String(p.value), label: p.label }))}
          />
        </Group>
      </PageTitle>
      {platform && <LedgerHealth />}
      {merchants.isPending ? (
        <SectionLoader label="Loading merchants" />
      ) : merchants.isError ? (
        <Alert color="red" title="Could not load the merchants">
          {merchants.error.message}
        </Alert>
      ) : list.length === 0 ? (
        <Text c="dimmed">Nothing found</Text>
      ) : (
        <Paper withBorder radius="md" p="md">
          <Tabs value={activeTab} onChange={setTab} keepMounted={false}>
            <Tabs.List mb="md">
              {list.map((m) => (
                <Tabs.Tab key={m.merchantId} value={m.merchantId}>
                  {m.name}
                </Tabs.Tab>
              ))}
            </Tabs.List>
            {list.map((m) => (
              <Tabs.Panel key={m.merchantId} value={m.merchantId}>
                <MerchantPanel merchantId={m.merchantId} period={period} active={activeTab === m.merchantId} />
              </Tabs.Panel>
            ))}
          </Tabs>
        </Paper>
      )}
    </>
  );
}
