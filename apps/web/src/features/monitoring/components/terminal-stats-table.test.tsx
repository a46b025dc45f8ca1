import { renderToStaticMarkup } from 'react-dom/server';
import { MantineProvider } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { outcomeRates, type TerminalStatItem } from '@paydesk/contracts/monitoring';
import { TerminalStatsTable } from './terminal-stats-table';

const row = (counts: { newCount: number; successCount: number; cancelCount: number; declinedCount: number }) =>
  ({
    terminalId: '00000000-0000-4000-8000-000000000001',
    name: 'Quiet terminal',
    enable: true,
    total: counts.newCount + counts.successCount + counts.cancelCount + counts.declinedCount,
    ...counts,
    // the server's rule, from the same contracts function
    ...outcomeRates(counts),
    successPercentLowThreshold: 60,
    successPercentHighThreshold: 85,
    bucketMinutes: 5,
    series: [],
  }) satisfies TerminalStatItem;

const render = (rows: TerminalStatItem[]) =>
  renderToStaticMarkup(
    <MantineProvider>
      <TerminalStatsTable rows={rows} />
    </MantineProvider>,
  );

/** The success badge of the (only) row: its level and text. */
function successBadge(html: string) {
  const m = /data-level="([a-z]+)" data-testid="success-percent"><span[^>]*>(.*?)<\/span>/.exec(html);
  if (!m) throw new Error(`no success badge in ${html}`);
  return { level: m[1], text: m[2]!.replace(/<[^>]+>/g, '') };
}

describe('TerminalStatsTable', () => {
  it('a terminal whose invoices are all NEW shows its NEW count and a neutral "no data" rate, not a red 0 %', () => {
    const html = render([row({ newCount: 3, successCount: 0, cancelCount: 0, declinedCount: 0 })]);
    expect(html).toContain('aria-label="NEW 3"');
    expect(successBadge(html)).toEqual({ level: 'none', text: 'no data' });
    expect(html).toContain('aria-label="Success 0, no data"');
    expect(html).toContain('aria-label="Canceled 0, no data"');
    expect(html).toContain('aria-label="Declined 0, no data"');
    expect(html).not.toContain('0%');
  });

  it('once something has finished the rate is of the finished ones and coloured by the thresholds', () => {
    // 1 done of 1 finished: 100 %, green, whatever is still NEW
    expect(successBadge(render([row({ newCount: 5, successCount: 1, cancelCount: 0, declinedCount: 0 })]))).toEqual({
      level: 'high',
      text: '100%',
    });
    // one decline and nothing else finished: a real 0 %, red
    expect(successBadge(render([row({ newCount: 5, successCount: 0, cancelCount: 0, declinedCount: 1 })]))).toEqual({
      level: 'low',
      text: '0%',
    });
  });

  it('a terminal without invoices in the period says "no data" across the counts', () => {
    const html = render([row({ newCount: 0, successCount: 0, cancelCount: 0, declinedCount: 0 })]);
    expect(html).toContain('no data');
    expect(html).not.toContain('data-testid="success-percent"');
  });
});
