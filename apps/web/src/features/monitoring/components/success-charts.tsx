import { Badge, Group, Paper, SimpleGrid, Text, Title } from '@mantine/core';
import type { TerminalStatItem } from '@paydesk/contracts/monitoring';
import { countOf, thresholdBands } from '../lib/chart-format';
import { SuccessChart } from './success-chart';

function BandsLegend({ low, high }: { low: number | null; high: number | null }) {
  const bands = thresholdBands(low, high);
  if (!bands.length) {
    return (
      <Text size="xs" c="dimmed">
        No thresholds set for this terminal
      </Text>
    );
  }
  return (
    <Group gap={6} role="group" aria-label="Threshold bands">
      {bands.map((b) => (
        <Badge key={b.color} size="xs" variant="light" color={b.color} radius="sm">
          {b.label}
        </Badge>
      ))}
    </Group>
  );
}

/**
 * One chart per terminal with a success rate in the period (at least one invoice finished); the others are named
 * in a line each: those whose invoices are all still under way, and those without invoices.
 */
export function SuccessCharts({ rows }: { rows: TerminalStatItem[] }) {
  const withData = rows.filter((r) => r.successPercent !== null);
  const underWay = rows.filter((r) => r.total > 0 && r.successPercent === null);
  const without = rows.filter((r) => r.total === 0);
  if (!rows.length) return null;
  const step = rows[0]!.bucketMinutes;
  return (
    <section aria-labelledby="success-charts-title">
      <Title order={2} size="h4" mt="xl" mb={4} id="success-charts-title">
        Success rate over the period
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Share of DONE among the finished invoices (DONE, CANCELED, DECLINED) per{' '}
        {step === 60 ? 'hour' : `${step} minutes`}, by creation time (UTC); a gap where none has finished. Hover a point
        for its counts.
      </Text>
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        {withData.map((r) => (
          <Paper key={r.terminalId} withBorder radius="md" p="sm" data-testid={`success-chart-${r.terminalId}`}>
            <Group justify="space-between" align="flex-start" gap="xs" mb="xs" wrap="wrap">
              <div>
                <Text fw={500}>{r.name}</Text>
                <Text size="xs" c="dimmed">
                  {countOf(r.total, 'invoice', 'invoices')}: {r.successCount} of{' '}
                  {r.successCount + r.cancelCount + r.declinedCount} finished successful ({r.successPercent}%)
                </Text>
              </div>
              <BandsLegend low={r.successPercentLowThreshold} high={r.successPercentHighThreshold} />
            </Group>
            <SuccessChart
              series={r.series}
              bucketMinutes={r.bucketMinutes}
              low={r.successPercentLowThreshold}
              high={r.successPercentHighThreshold}
              name={r.name}
            />
          </Paper>
        ))}
      </SimpleGrid>
      {underWay.length > 0 && (
        <Text size="sm" c="dimmed" mt="sm" data-testid="success-charts-under-way">
          No invoice has finished yet, so no success rate: {underWay.map((r) => r.name).join(', ')}.
        </Text>
      )}
      {without.length > 0 && (
        <Text size="sm" c="dimmed" mt="sm">
          No invoices in the period: {without.map((r) => r.name).join(', ')}.
        </Text>
      )}
    </section>
  );
}
