import { Badge, Table, Text, Tooltip } from '@mantine/core';
import { successLevel, type SuccessLevel, type TerminalStatItem } from '@paydesk/contracts/monitoring';
import { countOf } from '../lib/chart-format';

/** Red below successPercentLowThreshold, orange between, green at or above successPercentHighThreshold. */
const LEVEL_COLOR: Record<SuccessLevel, string> = { low: 'red', mid: 'orange', high: 'teal', none: 'gray' };
const LEVEL_TEXT: Record<SuccessLevel, string> = {
  low: 'below the low threshold',
  mid: 'between thresholds',
  high: 'at or above target',
  none: '',
};

/** A rate, or "no data" when it is undefined: nothing in the period has finished (contracts' outcomeRates). */
const pct = (v: number | null) => (v === null ? 'no data' : `${v}%`);

function CountCell({ count, percent, label }: { count: number; percent: number | null; label: string }) {
  return (
    <Table.Td aria-label={`${label} ${count}, ${pct(percent)}`}>
      <Text span fw={500} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {count}
      </Text>{' '}
      <Text span c="dimmed" size="sm">
        ({pct(percent)})
      </Text>
    </Table.Td>
  );
}

export function TerminalStatsTable({ rows }: { rows: TerminalStatItem[] }) {
  if (!rows.length) {
    return (
      <Text c="dimmed" py="md">
        This merchant has no terminals.
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped highlightOnHover verticalSpacing="sm" aria-label="Terminal statistics">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Terminal</Table.Th>
            <Table.Th>Enabled</Table.Th>
            <Table.Th>NEW</Table.Th>
            <Table.Th>Success</Table.Th>
            <Table.Th>Canceled</Table.Th>
            <Table.Th>Declined</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => {
            const hasData = r.total > 0;
            // null while none of the period's invoices has finished: neutral, never a red 0 %
            const level = successLevel(r.successPercent, r.successPercentLowThreshold, r.successPercentHighThreshold);
            const thresholds =
              r.successPercentLowThreshold !== null || r.successPercentHighThreshold !== null
                ? `Low ${r.successPercentLowThreshold ?? '–'}%, high ${r.successPercentHighThreshold ?? '–'}%`
                : 'No thresholds set';
            const hint =
              r.successPercent === null
                ? 'None of these invoices has finished yet: the rate counts finished ones only'
                : `${thresholds}${LEVEL_TEXT[level] ? ` — ${LEVEL_TEXT[level]}` : ''}`;
            return (
              <Table.Tr key={r.terminalId} data-testid={`terminal-row-${r.terminalId}`}>
                <Table.Td>
                  <Text fw={500}>{r.name}</Text>
                  {hasData && (
                    <Text size="xs" c="dimmed">
                      {countOf(r.total, 'invoice', 'invoices')}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Badge variant="light" color={r.enable ? 'teal' : 'gray'}>
                    {r.enable ? 'on' : 'off'}
                  </Badge>
                </Table.Td>
                {hasData ? (
                  <>
                    <Table.Td aria-label={`NEW ${r.newCount}`} style={{ fontVariantNumeric: 'tabular-nums' }}>
                      {r.newCount}
                    </Table.Td>
                    <Table.Td aria-label={`Success ${r.successCount}, ${pct(r.successPercent)}`}>
                      <Text span fw={500} style={{ fontVariantNumeric: 'tabular-nums' }}>
                        {r.successCount}
                      </Text>{' '}
                      <Tooltip label={hint}>
                        <Badge
                          variant={r.successPercent === null ? 'light' : 'filled'}
                          color={LEVEL_COLOR[level]}
                          data-level={level}
                          data-testid="success-percent"
                        >
                          {pct(r.successPercent)}
                        </Badge>
                      </Tooltip>
                    </Table.Td>
                    <CountCell count={r.cancelCount} percent={r.cancelPercent} label="Canceled" />
                    <CountCell count={r.declinedCount} percent={r.declinedPercent} label="Declined" />
                  </>
                ) : (
                  <Table.Td colSpan={4}>
                    <Text c="dimmed" fs="italic">
                      no data
                    </Text>
                  </Table.Td>
                )}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
