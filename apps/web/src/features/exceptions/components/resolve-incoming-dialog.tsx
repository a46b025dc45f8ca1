import { useState } from 'react';
import { Link } from 'react-router';
import { Alert, Anchor, Button, Divider, Group, Modal, Stack, Table, Text, TextInput, Textarea } from '@mantine/core';
import type { IncomingCandidate } from '@paydesk/contracts/exceptions';
import { statusByCode } from '@paydesk/contracts/statuses';
import { actionErrorMessage } from '../../../lib/api';
import { PAGES } from '../../../lib/pages';
import { SectionLoader } from '../../../components/full-page-loader';
import { toast } from '../../../components/toast';
import { useIncomingDetail, useMatchIncoming, useReturnIncoming } from '../api/exceptions';
import { useMoney } from './money';

type Props = { id: string | null; onClose: () => void };

/**
 * One unmatched payment: the deposits it may belong to, best first, each matched in one click once a reason is
 * given; or the return to the payer with the bank's reference.
 */
export function ResolveIncomingDialog({ id, onClose }: Props) {
  const detail = useIncomingDetail(id);
  const money = useMoney();
  const match = useMatchIncoming();
  const giveBack = useReturnIncoming();
  const [reason, setReason] = useState('');
  const [reference, setReference] = useState('');
  const reasonOk = reason.trim().length >= 3;
  const close = () => {
    setReason('');
    setReference('');
    onClose();
  };
  const onMatch = (c: IncomingCandidate) =>
    match.mutate(
      { id: id!, invoiceId: c.invoiceId, reason: reason.trim() },
      {
        onSuccess: () => {
          toast.success(`Matched to ${c.merchantInvoiceId} (${c.merchantName})`);
          close();
        },
        onError: (e) => toast.error(actionErrorMessage(e, 'The money could not be matched')),
      },
    );
  const onReturn = () =>
    giveBack.mutate(
      { id: id!, reference: reference.trim(), reason: reason.trim() },
      {
        onSuccess: () => {
          toast.success('Returned to the payer');
          close();
        },
        onError: (e) => toast.error(actionErrorMessage(e, 'The money could not be returned')),
      },
    );
  const item = detail.data?.item;
  return (
    <Modal opened={id !== null} onClose={close} title="Resolve unmatched money" size="xl" centered>
      {detail.isPending ? (
        <SectionLoader label="Loading the payment" />
      ) : detail.isError ? (
        <Alert color="red" title="Could not load the payment">
          {detail.error.message}
        </Alert>
      ) : (
        <Stack>
          <Text>
            <b>{money(item!.amount, item!.currency)}</b> arrived on account {item!.accountId} ({item!.providerName}
            {item!.accountName ? `, ${item!.accountName}` : ''}), reference <code>{item!.reference}</code>, at{' '}
            {new Date(item!.occurredAt).toLocaleString('en-GB', { timeZone: 'UTC' })} UTC
            {item!.payerName ? (
              <>
                , paid by <b>{item!.payerName}</b>
              </>
            ) : null}
            .
          </Text>
          <Textarea
            label="Reason"
            description="Required for a match or a return; recorded in the invoice's history and the audit trail"
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            autosize
            minRows={2}
            maxLength={500}
            data-autofocus
          />
          <Divider label="Deposits it may belong to" labelPosition="left" />
          {detail.data!.candidates.length === 0 ? (
            <Text c="dimmed">No deposit of this currency on this account in the three days before it arrived.</Text>
          ) : (
            <Table.ScrollContainer minWidth={640}>
              <Table verticalSpacing="xs">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Invoice</Table.Th>
                    <Table.Th>Merchant</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th style={{ textAlign: 'right' }}>Amount</Table.Th>
                    <Table.Th>Why</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {detail.data!.candidates.map((c) => (
                    <Table.Tr key={c.invoiceId}>
                      <Table.Td>
                        <Anchor component={Link} to={PAGES.InvoiceDetails(c.invoiceId)} target="_blank">
                          {c.merchantInvoiceId}
                        </Anchor>
                        <Text size="xs" c="dimmed">
                          {c.customer}
                        </Text>
                      </Table.Td>
                      <Table.Td>{c.merchantName}</Table.Td>
                      <Table.Td>{statusByCode(c.status)?.value ?? c.status}</Table.Td>
                      <Table.Td style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
                        {money(c.amount, item!.currency)}
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{c.reasons.join(', ') || '—'}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Button
                          size="xs"
                          disabled={!reasonOk}
                          title={reasonOk ? undefined : 'Give a reason first'}
                          loading={match.isPending && match.variables?.invoiceId === c.invoiceId}
                          onClick={() => onMatch(c)}
                          aria-label={`Match to ${c.merchantInvoiceId}`}
                        >
                          Match
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          <Divider label="Or return it to the payer" labelPosition="left" />
          <Group align="flex-end">
            <TextInput
              label="Bank reference of the return"
              value={reference}
              onChange={(e) => setReference(e.currentTarget.value)}
              maxLength={128}
              style={{ flex: 1 }}
            />
            <Button
              variant="default"
              color="red"
              disabled={!reasonOk || reference.trim() === ''}
              loading={giveBack.isPending}
              onClick={onReturn}
            >
              Return to payer
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
