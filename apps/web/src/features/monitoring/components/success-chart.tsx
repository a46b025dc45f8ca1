import { LineChart } from '@mantine/charts';
import { Paper, Text } from '@mantine/core';
import { formatUtcTime } from '@paydesk/contracts/dates';
import type { SuccessPoint } from '@paydesk/contracts/monitoring';
import { bucketCounts, bucketRange, thresholdBands } from '../lib/chart-format';

type Props = {
  series: SuccessPoint[];
  bucketMinutes: number;
  low: number | null;
  high: number | null;
  name: string;
};

function BucketTooltip({ row, bucketMinutes }: { row: SuccessPoint | undefined; bucketMinutes: number }) {
  if (!row) return null;
  return (
    <Paper withBorder shadow="sm" p="xs" radius="sm" data-testid="success-chart-tooltip">
      <Text size="xs" c="dimmed">
        {bucketRange(row.t, bucketMinutes)}
      </Text>
      <Text size="sm" fw={500}>
        {bucketCounts(row)}
      </Text>
    </Paper>
  );
}

/**
 * Success rate per bucket of the period on a fixed 0–100 % scale, over the terminal's threshold bands.
 * Buckets with nothing finished leave a gap rather than pretending 0 %.
 */
export function SuccessChart({ series, bucketMinutes, low, high, name }: Props) {
  // keyed by the ISO start: a 24 h period has two buckets at the same clock time
  const byStart = new Map(series.map((p) => [p.t, p]));
  const bands = thresholdBands(low, high);
  const summary = series
    .filter((p) => p.total > 0)
    .map(
      (p) =>
        `${formatUtcTime(p.t)} ${p.finishedCount ? `${p.successCount} of ${p.finishedCount} finished` : `${p.total} under way`}`,
    )
    .join(', ');
  return (
    <figure
      aria-label={`Success rate of ${name} per ${bucketMinutes} minutes${summary ? `: ${summary}` : ': no data'}`}
      style={{ margin: 0 }}
    >
      <LineChart
        h={220}
        data={series}
        dataKey="t"
        series={[{ name: 'successPercent', label: 'Success', color: 'blue.7' }]}
        xAxisLabel="Time, UTC"
        yAxisLabel="Success, %"
        // padding keeps dots at 0 % and 100 % clear of the axis line and the card edge
        yAxisProps={{ domain: [0, 100], ticks: [0, 25, 50, 75, 100], width: 40, padding: { top: 8, bottom: 8 } }}
        xAxisProps={{
          interval: 'preserveStartEnd',
          minTickGap: 16,
          tickFormatter: (t: string) => formatUtcTime(t),
        }}
        gridAxis="y"
        referenceAreas={bands.map((b) => ({
          y1: b.from,
          y2: b.to,
          color: b.color,
          fillOpacity: 0.12,
          strokeOpacity: 0,
          ifOverflow: 'hidden',
        }))}
        withDots
        dotProps={{ r: 3, strokeWidth: 0 }}
        activeDotProps={{ r: 5 }}
        curveType="linear"
        connectNulls={false}
        strokeWidth={2}
        tooltipAnimationDuration={0}
        tooltipProps={{
          wrapperStyle: { zIndex: 10 },
          content: ({ label }) => <BucketTooltip row={byStart.get(String(label))} bucketMinutes={bucketMinutes} />,
        }}
      />
    </figure>
  );
}
