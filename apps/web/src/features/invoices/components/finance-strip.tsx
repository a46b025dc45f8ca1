import { Paper, SimpleGrid, Skeleton, Text } from '@mantine/core';
import { formatMoney } from '@paydesk/contracts/money';
import { useCurrencies, useFinance, type FinanceKind } from '../api/finance';

const TILES: { kind: FinanceKind; title: string }[] = [
  { kind: 'balance', title: 'Balance' },
  { kind: 'deposit', title: 'Deposit' },
  { kind: 'withdrawal', title: 'Withdrawal' },
];

/** Balance, deposit and withdrawal of the merchant (or of the selected terminal); merchant.read.finance only. */
export function FinanceStrip({ terminalId }: { terminalId: string }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} mb="lg" role="region" aria-label="Finance summary">
      {TILES.map((t) => (
        <FinanceTile key={t.kind} kind={t.kind} title={t.title} terminalId={terminalId} />
      ))}
    </SimpleGrid>
  );
}

function FinanceTile({ kind, title, terminalId }: { kind: FinanceKind; title: string; terminalId: string }) {
  const { data, isPending, isError } = useFinance(kind, terminalId);
  const { data: currencies } = useCurrencies();
  const dimension = currencies?.find((c) => c.code === data?.currency)?.dimension ?? 2;
  return (
    <Paper withBorder p="md" radius="md">
      <Text size="sm" c="dimmed" tt="capitalize">
        {title}
      </Text>
      {isPending ? (
        <Skeleton height={28} mt={6} width="70%" animate aria-label={`Loading ${title.toLowerCase()}`} />
      ) : (
        <Text fz="xl" fw={600} mt={4} data-testid={`finance-${kind}`}>
          {isError ? '—' : data ? formatMoney(data.sum, dimension, 'en', data.currency) : formatMoney(0, 2)}
        </Text>
      )}
    </Paper>
  );
}
