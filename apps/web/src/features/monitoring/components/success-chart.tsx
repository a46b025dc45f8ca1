import { AreaChart } from '@mantine/charts';
import type { SuccessPoint } from '@paydesk/contracts/monitoring';
import { formatUtcTime } from '@paydesk/contracts/dates';

type Props = { series: SuccessPoint[]; color: string; name: string };

/** Success rate over the period in equal buckets, on a fixed 0–100 % scale; empty buckets leave a gap. */
export function SuccessChart({ series, color, name }: Props) {
  const data = series.map((p) => ({
    time: formatUtcTime(p.t),
    success: p.successPercent,
    invoices: p.total,
  }));
  const summary = series
    .filter((p) => p.successPercent !== null)
    .map((p) => `${formatUtcTime(p.t)} ${p.successPercent}%`)
    .join(', ');
  return (
    <div role="img" aria-label={`Success rate of ${name} over the period${summary ? `: ${summary}` : ': no data'}`}>
      <AreaChart
        h={40}
        w={150}
        data={data}
        dataKey="time"
        series={[{ name: 'success', label: 'Success, %', color }]}
        withXAxis={false}
        withYAxis={false}
        gridAxis="none"
        withDots
        dotProps={{ r: 2, strokeWidth: 0 }}
        activeDotProps={{ r: 3 }}
        curveType="linear"
        connectNulls={false}
        strokeWidth={1.5}
        fillOpacity={0.25}
        yAxisProps={{ domain: [0, 100] }}
        tooltipAnimationDuration={0}
        tooltipProps={{ wrapperStyle: { zIndex: 10 } }}
        valueFormatter={(v) => `${v}%`}
      />
    </div>
  );
}
