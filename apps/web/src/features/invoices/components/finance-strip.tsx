import { memo, useMemo } from 'react';
import { Paper, SimpleGrid, Text } from '@mantine/core';
import { BalanceCard } from '../../../components/balance-card';
import { toFigures, useFinance, type FinanceKind } from '../../../lib/finance';
import { useFirstPaintHold } from '../../../lib/first-paint';
import { useCurrencies } from '../../../lib/references';
import { useTerminals } from '../../../lib/terminals';

const KINDS: FinanceKind[] = ['balance', 'deposit', 'withdrawal'];

/**
 * Balance, deposit and withdrawal of the merchant (or of the selected terminal) in every currency it holds;
 * merchant.read.finance only. The balance tile offers the settlement dialog for the selected terminal
 * (settlement.create). Memoised: the list's own updates do not redraw the tiles.
 */
export const FinanceStrip = memo(function FinanceStrip({ terminalId }: { terminalId: string }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} mb="lg" role="region" aria-label="Finance summary">
      {KINDS.map((kind) => (
        <FinanceTile key={kind} kind={kind} terminalId={terminalId} />
      ))}
    </SimpleGrid>
  );
});

/**
 * Live money first (test terminals post to a test book of their own, never to live figures). A test terminal shows its
 * test book, labelled; with all terminals, a merchant that has test terminals also sees its test figures apart, under
 * the live ones.
 */
function FinanceTile({ kind, terminalId }: { kind: FinanceKind; terminalId: string }) {
  const { data: terminals, isError: terminalsFailed } = useTerminals();
  const selected = terminals?.find((t) => t.id === terminalId);
  const onTest = selected?.isTest ?? false;
  const hasTest = !terminalId && (terminals?.some((t) => t.isTest) ?? false);
  const { data, isError } = useFinance(kind, terminalId, true, onTest ? 'test' : 'live');
  const test = useFinance(kind, terminalId, hasTest, 'test');
  const { data: currencies } = useCurrencies();
  // kept while the answers they come from are the same, so the (memoised) card is redrawn only when they change
  const figures = useMemo(() => toFigures(data, currencies), [data, currencies]);
  const testData = test.data;
  const testFigures = useMemo(
    () => (hasTest ? toFigures(testData, currencies) : undefined),
    [hasTest, testData, currencies],
  );
  // a tile grows by a line per currency and by the test book's line: the first paint waits for its figures
  // (lib/first-paint.ts), and for the terminals, which tell whether a test line comes (its figures may come after:
  // the line holds its place meanwhile)
  const known = (terminals !== undefined || terminalsFailed) && figures !== undefined;
  useFirstPaintHold(isError || known);
  if (isError) {
    return (
      <Paper withBorder p="md" radius="md">
        <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
          {kind}
        </Text>
        <Text fz={24} fw={700} mt={2}>
          —
        </Text>
      </Paper>
    );
  }
  return (
    <BalanceCard
      title={kind}
      figures={figures}
      terminalId={terminalId || undefined}
      book={onTest ? 'test' : 'live'}
      testFigures={hasTest && testFigures === undefined && !test.isError ? 'loading' : testFigures}
    />
  );
}
