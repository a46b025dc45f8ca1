import type { ReactNode } from 'react';
import { Badge, Button, Divider, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconCopy, IconRefresh, IconSend } from '@tabler/icons-react';
import { formatDateLong } from '@paydesk/contracts/dates';
import { invoiceRuleInput, type InvoiceDetails } from '@paydesk/contracts/invoices';
import { formatMoney } from '@paydesk/contracts/money';
import { hasPermission } from '@paydesk/contracts/permissions';
import {
  canChangeAmount,
  canChangeStatus,
  canRequestRetry,
  canSendCallback,
  retryRefusal,
} from '@paydesk/contracts/statuses';
import { RevealableNumber } from '../../../components/revealable-number';
import { toast } from '../../../components/toast';
import { usePermissions } from '../../../lib/session';
import { revealInvoiceRequisite } from '../api/invoice';
import { useRetry, useSendCallback } from '../api/invoice-actions';
import { ConfirmedActionButton } from './action-button';
import { ChangeAmountButton } from './change-amount';
import { StatusBadge } from './status-badge';
import { StatusControl } from './status-control';

async function copyInvoiceId(id: string) {
  try {
    await navigator.clipboard.writeText(id);
    toast.success('Invoice ID copied to clipboard');
  } catch (e) {
    // a failed or unsupported clipboard only warns
    console.warn('Copy failed', e);
  }
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group
      justify="space-between"
      wrap="nowrap"
      gap="md"
      py={6}
      style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
    >
      <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text component="div" size="sm" ta="right" style={{ wordBreak: 'break-all' }}>
        {children}
      </Text>
    </Group>
  );
}

/**
 * The invoice's Transaction card with its permission rules (contracts decide, the web hides), and the page's title.
 * An action the server would refuse in the invoice's state is shown disabled with the reason (the same rule).
 */
export function TransactionCard({ invoice }: { invoice: InvoiceDetails }) {
  const perms = usePermissions();
  const rule = invoiceRuleInput(invoice);
  const money = (minor: number) => formatMoney(minor, invoice.currency.dimension, 'en', invoice.currency.code);
  const retry = useRetry(invoice.invoiceId);
  const callback = useSendCallback(invoice.invoiceId);
  const showRetry = canRequestRetry(rule, perms);
  const retryRefused = showRetry ? retryRefusal(rule) : null;
  const canReadCredentials = hasPermission(perms, 'invoice.credentials.read');
  const canReadProvider = hasPermission(perms, 'invoice.provider.read');
  const fullName = invoice.customer
    ? `${invoice.customer.people.firstName} ${invoice.customer.people.lastName}`.trim()
    : '';

  return (
    <Paper withBorder radius="md" p="lg" aria-labelledby="transaction-title">
      <Group justify="space-between" mb="md" wrap="wrap">
        <Group gap="sm">
          {/* the page's one heading: the page repeats no title above the card */}
          <Title order={1} fz="h3" id="transaction-title">
            Transaction
          </Title>
          {invoice.isTestProcessing && (
            <Badge color="orange" variant="filled">
              Test
            </Badge>
          )}
          <Text size="sm" c="dimmed">
            {formatDateLong(invoice.statusDate)}
          </Text>
        </Group>
        <Button
          variant="subtle"
          size="xs"
          leftSection={<IconCopy size={14} aria-hidden />}
          onClick={() => copyInvoiceId(invoice.invoiceId)}
        >
          Copy
        </Button>
      </Group>

      <SimpleGrid cols={2} mb="md">
        <div>
          <Text size="sm" c="dimmed">
            Amount
          </Text>
          <Text fz={28} fw={700} data-testid="invoice-amount">
            {money(invoice.amount)}
          </Text>
        </div>
        <div>
          <Text size="sm" c="dimmed">
            Fee
          </Text>
          <Text fz={28} fw={700} c="dimmed">
            {money(invoice.fee ?? 0)}
          </Text>
        </div>
      </SimpleGrid>

      <Stack gap={0}>
        <Row label="Flow Type">{invoice.flowType.code}</Row>
        <Row label="Invoice ID">{invoice.invoiceId}</Row>
        <Row label="Merchant Invoice ID">{invoice.merchantInvoiceId}</Row>
        {canReadProvider && invoice.providerInvoiceId && (
          <Row label="Provider Invoice ID">{invoice.providerInvoiceId}</Row>
        )}
        <Row label="User ID">{invoice.customer?.externalId ?? '-'}</Row>
        <Row label="Owner name">{fullName || '-'}</Row>
        <Row label="Terminal ID">{invoice.terminal.id}</Row>
        <Row label="Terminal name">{invoice.terminal.name}</Row>
        <Row label="Status">
          <Group gap="xs" justify="flex-end" wrap="nowrap">
            <StatusBadge
              code={invoice.invoiceStatus.code}
              label={invoice.invoiceStatus.value}
              data-testid="invoice-status"
            />
            {canChangeStatus(rule, perms) && <StatusControl invoice={invoice} />}
          </Group>
        </Row>
        <Row label="Status date">{formatDateLong(invoice.statusDate)}</Row>
        <Row label="Currency code">{invoice.currency.code}</Row>
        <Row label="Payment method name">{invoice.paymentMethod?.paymentMethod.name ?? '-'}</Row>
        {/* the server sends none of these without the permission; the screen does not rely on it */}
        {canReadCredentials && (
          <Row label="Credentials">
            {invoice.account ? (
              // masked as sent; the full number only on request, forgotten with another invoice or another number
              <RevealableNumber
                key={`${invoice.invoiceId}:${invoice.account.value}`}
                masked={invoice.account.value}
                canReveal={canReadCredentials}
                reveal={() => revealInvoiceRequisite(invoice.invoiceId)}
                align="end"
              />
            ) : (
              '-'
            )}
          </Row>
        )}
        {canReadCredentials && invoice.credentials?.bankName && (
          <Row label="Bank name">{invoice.credentials.bankName}</Row>
        )}
        {canReadCredentials && invoice.credentials?.owner && <Row label="Owner">{invoice.credentials.owner}</Row>}
        {canReadProvider && invoice.credentials?.provider && <Row label="Provider">{invoice.credentials.provider}</Row>}
      </Stack>

      {(canChangeAmount(rule, perms) || showRetry || canSendCallback(perms)) && (
        <>
          <Divider my="md" />
          <Group gap="sm">
            {canChangeAmount(rule, perms) && <ChangeAmountButton invoice={invoice} />}
            {showRetry && (
              <ConfirmedActionButton
                label="Retry"
                icon={<IconRefresh size={16} aria-hidden />}
                title="Invoice retry"
                message="Are you sure you want to retry?"
                mutation={retry}
                refusal={retryRefused}
                success="Retry started"
                failure="Failed to retry"
              />
            )}
            {canSendCallback(perms) && (
              <ConfirmedActionButton
                label="Callback"
                icon={<IconSend size={16} aria-hidden />}
                title="Send manual callback"
                message="Are you sure you want to send manual callback to merchant?"
                mutation={callback}
                success="Manual callback queued"
                failure="Failed to send callback"
              />
            )}
          </Group>
        </>
      )}
    </Paper>
  );
}
