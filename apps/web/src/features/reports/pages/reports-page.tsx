import '@mantine/dates/styles.css';
import { Alert, Group, SimpleGrid } from '@mantine/core';
import { BalanceCard } from '../../../components/balance-card';
import { PageTitle } from '../../../components/page-title';
import { Refusal } from '../../../components/refusal';
import { useCurrencies } from '../../../lib/references';
import { useCan } from '../../../lib/session';
import { useSelectedTerminal, useTerminals } from '../../../lib/terminals';
import { toFigures, useFinance } from '../../../lib/finance';
import {
  BalanceReportCard,
  InvoiceReportCard,
  PoolBalanceReportCard,
  ProviderReportCard,
} from '../components/report-forms';

/** The balance of the terminal chosen in the top bar (or of the merchant), with the Settlement action. */
function BalanceStrip({ terminalId }: { terminalId: string }) {
  const { data: terminals } = useTerminals();
  // a test terminal's money is in the test book, never in live figures
  const book = terminals?.find((t) => t.id === terminalId)?.isTest ? 'test' : 'live';
  const balance = useFinance('balance', terminalId, true, book);
  const currencies = useCurrencies();
  if (balance.isError) {
    return (
      <Alert color="red" mb="lg" title="Could not load the balance">
        {balance.error.message}
      </Alert>
    );
  }
  // nothing on the ledger yet: no tile
  if (balance.data?.length === 0) return null;
  return (
    <Group mb="lg" align="stretch">
      <BalanceCard
        title="balance"
        figures={toFigures(balance.data, currencies.data)}
        terminalId={terminalId || undefined}
        book={book}
      />
    </Group>
  );
}

/** Reports: four cards, each shown with its permission; every card downloads a CSV. */
export default function ReportsPage() {
  const [terminalId] = useSelectedTerminal();
  const canFinance = useCan('merchant.read.finance');
  const cards = {
    invoice: useCan('report.read.invoice'),
    balance: useCan('report.read.balance'),
    provider: useCan('report.read.provider'),
    pool: useCan('report.read.pool.balance'),
  };
  const none = !Object.values(cards).some(Boolean);

  return (
    <>
      <PageTitle title="Reports" />
      {canFinance && <BalanceStrip terminalId={terminalId} />}
      {none ? (
        <Refusal message="Your role does not allow you to run any report." />
      ) : (
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
          {cards.invoice && <InvoiceReportCard terminalId={terminalId} />}
          {cards.balance && <BalanceReportCard />}
          {cards.provider && <ProviderReportCard />}
          {cards.pool && <PoolBalanceReportCard />}
        </SimpleGrid>
      )}
    </>
  );
}
