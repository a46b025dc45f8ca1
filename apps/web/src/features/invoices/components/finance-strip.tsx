import { Paper, SimpleGrid, Text } from '@mantine/core';
import { BalanceCard } from '../../../components/balance-card';
import { useFinance, type FinanceKind } from '../../../lib/finance';
import { useCurrencies } from '../../../lib/references';

const KINDS: FinanceKind[] = ['balance', 'deposit', 'withdrawal'];

/**
 * Balance, deposit and withdrawal of the merchant (or of the selected terminal); merchant.read.finance only.
 * The balance tile offers the settlement dialog for the selected terminal (settlement.create).
 */
export function FinanceStrip({ terminalId }: { terminalId: string }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} mb="lg" role="region" aria-label="Finance summary">
      {KINDS.map((kind) => (
        <FinanceTile key={kind} kind={kind} terminalId={terminalId} />
      ))}
    </SimpleGrid>
  );
}

function FinanceTile({ kind, terminalId }: { kind: FinanceKind; terminalId: string }) {
  const { data, isError } = useFinance(kind, terminalId);
  const { data: currencies } = useCurrencies();
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
  // null: nothing on the ledger yet (a zero without a currency)
  const currency =
    data === null
      ? { code: '', dimension: 2 }
      : data
        ? { code: data.currency, dimension: currencies?.find((c) => c.code === data.currency)?.dimension ?? 2 }
        : undefined;
  const amount = data === null ? 0 : data?.sum;
  return <BalanceCard title={kind} amount={amount} currency={currency} terminalId={terminalId || undefined} />;
}
