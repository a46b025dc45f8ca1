import { Suspense, lazy, memo, useState } from 'react';
import { Badge, Button, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { IconCash } from '@tabler/icons-react';
import type { MoneyFigure } from '../lib/finance';
import { formatMoneyEn } from '../lib/format';
import { useCan } from '../lib/session';

// the settlement form (react-hook-form, zod): loaded when the Settlement button is about to be used
const loadSettlementDialog = () => import('./settlement-dialog');
const SettlementDialog = lazy(() => loadSettlementDialog().then((m) => ({ default: m.SettlementDialog })));
const preloadSettlementDialog = () => void loadSettlementDialog().catch(() => undefined);

export type BalanceCardProps = {
  title: string;
  /**
   * One figure per currency the merchant (or terminal) holds, in the server's order; an empty list is a zero with
   * nothing on the ledger yet; undefined while loading (a pulsing placeholder shows).
   */
  figures: MoneyFigure[] | undefined;
  terminalId?: string;
  /** 'test': the figures are the test book of a test terminal (labelled, never settled) */
  book?: 'live' | 'test';
  /**
   * with all terminals: the test book's figures, shown apart under the live ones; 'loading' while they are asked
   * for (a placeholder of the line's height holds its place, so nothing moves when they come)
   */
  testFigures?: MoneyFigure[] | 'loading';
};

const show = (f: MoneyFigure) => formatMoneyEn(f.amount, f.currency.dimension, f.currency.code);

/**
 * A finance tile (balance, deposits or withdrawals), every currency on a line of its own. The
 * 'balance' tile of a chosen terminal offers the Settlement dialog to users with settlement.create. Memoised: a tile
 * is redrawn when its own figures change, not with every answer the screen gets.
 */
export const BalanceCard = memo(function BalanceCard({
  title,
  figures,
  terminalId,
  book = 'live',
  testFigures,
}: BalanceCardProps) {
  const canSettle = useCan('settlement.create');
  const [open, setOpen] = useState(false);
  // the dialog is mounted from its first opening on (its form keeps what was typed between openings, as before)
  const [settlementUsed, setSettlementUsed] = useState(false);
  // settlements are paid from live money only, in the chosen terminal's currency (the server lists it first)
  const settlement = title === 'balance' && canSettle && Boolean(terminalId) && book === 'live';
  const label = title.charAt(0).toUpperCase() + title.slice(1);

  return (
    <Paper withBorder radius="md" p="md" aria-label={label} role="group" data-testid={`balance-card-${title}`}>
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <div style={{ minWidth: 0 }}>
          <Group gap={6}>
            <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
              {label}
            </Text>
            {book === 'test' && (
              <Badge size="xs" color="yellow" variant="filled" c="dark">
                Test
              </Badge>
            )}
          </Group>
          {figures === undefined ? (
            // a status, so that its name is announced (an aria-label on a plain div is not allowed, nor read)
            <Skeleton
              height={28}
              width={160}
              mt={6}
              radius="sm"
              animate
              role="status"
              aria-label={`${label} loading`}
            />
          ) : (
            <Stack gap={0} mt={2}>
              {figures.length === 0 ? (
                // nothing on the ledger yet: a zero that has no currency
                <Text fz={24} fw={700} data-testid="balance-amount">
                  0
                </Text>
              ) : (
                figures.map((f) => (
                  <Text
                    key={f.currency.code}
                    fz={figures.length > 1 ? 20 : 24}
                    fw={700}
                    data-testid="balance-amount"
                    style={{ fontVariantNumeric: 'tabular-nums', overflowWrap: 'anywhere' }}
                  >
                    {show(f)}
                  </Text>
                ))
              )}
            </Stack>
          )}
          {testFigures === 'loading' ? (
            <Text size="xs" c="dimmed" mt={2}>
              <Skeleton
                component="span"
                display="inline-block"
                height="1em"
                width={120}
                radius="sm"
                animate
                role="status"
                aria-label={`${label} test book loading`}
              >
                {' '}
              </Skeleton>
            </Text>
          ) : (
            testFigures &&
            testFigures.length > 0 && (
              <Text size="xs" c="dimmed" mt={2} data-testid="balance-test-amount">
                Test: {testFigures.map(show).join(' · ')}
              </Text>
            )
          )}
        </div>
        {settlement && (
          <Button
            size="xs"
            variant="light"
            leftSection={<IconCash size={16} aria-hidden />}
            onPointerEnter={preloadSettlementDialog}
            onFocus={preloadSettlementDialog}
            onClick={() => {
              setSettlementUsed(true);
              setOpen(true);
            }}
          >
            Settlement
          </Button>
        )}
      </Group>
      {settlement && terminalId && settlementUsed && (
        <Suspense fallback={null}>
          <SettlementDialog
            opened={open}
            onClose={() => setOpen(false)}
            terminalId={terminalId}
            currency={figures?.[0]?.currency}
          />
        </Suspense>
      )}
    </Paper>
  );
});
