import { useState } from 'react';
import { Badge, Button, Group, Paper, Skeleton, Text } from '@mantine/core';
import { IconCash } from '@tabler/icons-react';
import { formatMoney } from '@paydesk/contracts/money';
import type { ExactInt } from '@paydesk/contracts/exact-json';
import { useCan } from '../lib/session';
import { SettlementDialog } from './settlement-dialog';

export type BalanceCardProps = {
  title: string;
  /** Minor units; undefined while loading (a pulsing placeholder shows). */
  /** exact at any size: a bigint past 2^53 (contracts/exact-json.ts) */
  amount: ExactInt | undefined;
  currency: { code: string; dimension: number } | undefined;
  terminalId?: string;
  /** 'test': the figure is the test book of a test terminal (labelled, never settled) */
  book?: 'live' | 'test';
  /** with all terminals: the test book's figure, shown apart under the live one */
  testFigure?: { amount: ExactInt; currency: { code: string; dimension: number } };
};

/**
 * A finance tile (SPEC §2 "Balance card and settlement"). The 'balance' tile of a chosen terminal offers the
 * Settlement dialog to users with settlement.create.
 */
export function BalanceCard({ title, amount, currency, terminalId, book = 'live', testFigure }: BalanceCardProps) {
  const canSettle = useCan('settlement.create');
  const [open, setOpen] = useState(false);
  const loading = amount === undefined || currency === undefined;
  // settlements are paid from live money only
  const settlement = title === 'balance' && canSettle && Boolean(terminalId) && book === 'live';
  const label = title.charAt(0).toUpperCase() + title.slice(1);

  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      miw={220}
      aria-label={label}
      role="group"
      data-testid={`balance-card-${title}`}
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
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
          {loading ? (
            <Skeleton height={28} width={160} mt={6} radius="sm" animate aria-label={`${label} loading`} />
          ) : (
            <Text fz={24} fw={700} mt={2} data-testid="balance-amount" style={{ fontVariantNumeric: 'tabular-nums' }}>
              {formatMoney(amount, currency.dimension, 'en', currency.code)}
            </Text>
          )}
          {testFigure && (
            <Text size="xs" c="dimmed" mt={2} data-testid="balance-test-amount">
              Test: {formatMoney(testFigure.amount, testFigure.currency.dimension, 'en', testFigure.currency.code)}
            </Text>
          )}
        </div>
        {settlement && (
          <Button
            size="xs"
            variant="light"
            leftSection={<IconCash size={16} aria-hidden />}
            onClick={() => setOpen(true)}
          >
            Settlement
          </Button>
        )}
      </Group>
      {settlement && terminalId && (
        <SettlementDialog opened={open} onClose={() => setOpen(false)} terminalId={terminalId} currency={currency} />
      )}
    </Paper>
  );
}
