import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { invoiceRuleInput, type InvoiceDetails } from '@paydesk/contracts/invoices';
import { formatMoney } from '@paydesk/contracts/money';
import { statusChangeRefusal } from '@paydesk/contracts/statuses';
import { toast } from '../../../components/toast';
import { actionErrorMessage, isApiError } from '../../../lib/api';
import { isUnroutedDeposit, useArrivalAccountChoices } from '../api/arrival-accounts';
import type { TicketDecision, useDecideTicket } from '../api/invoice-actions';
import { RefusedButton } from './action-button';
import { ArrivalAccountSelect } from './arrival-account-select';

type DecideTicket = ReturnType<typeof useDecideTicket>;

const SUCCESS: Record<TicketDecision, string> = {
  approve: 'Successfully approved',
  reject: 'Successfully rejected',
};

/**
 * Approving sets the invoice DONE: a deposit that no account was routed to first names the account the
 * money arrived on (docs/engine.md, "One write path for an invoice"). An invoice already DONE stays as it is, so
 * approving only closes the ticket.
 */
const approvalNeedsAccount = (invoice: InvoiceDetails) =>
  isUnroutedDeposit(invoice) && invoice.invoiceStatus.code !== 'DONE';

/** Why the engine would refuse the approval's DONE in the invoice's state (e.g. a withdrawal never sent), or null. */
const approvalRefusal = (invoice: InvoiceDetails) =>
  invoice.invoiceStatus.code === 'DONE' ? null : statusChangeRefusal(invoiceRuleInput(invoice), 'DONE');

type ButtonsProps = {
  invoice: InvoiceDetails;
  ticketId: number;
  /**
   * Owned by the section, not the row: a decided ticket loses its buttons as soon as the tickets are
   * refetched, and the callbacks of `mutate` never run on an unmounted observer.
   */
  decide: DecideTicket;
  /** the approval needs the account the money arrived on: open the dialog that asks for it */
  onApproveWithAccount: () => void;
};

/** Approve / Reject of an open support ticket, decided at once unless the approval needs an account (then the dialog). */
export function TicketDecisionButtons({ invoice, ticketId, decide, onApproveWithAccount }: ButtonsProps) {
  const decideNow = (decision: TicketDecision) =>
    decide.mutate(
      { ticketId, decision },
      {
        onSuccess: () => toast.success(SUCCESS[decision]),
        onError: (e) =>
          // the page's copy of the invoice was out of date: ask for the account instead
          decision === 'approve' && isApiError(e) && e.fields?.peopleAccountId
            ? onApproveWithAccount()
            : toast.error(actionErrorMessage(e, 'Failed to change status')),
      },
    );
  const busy = decide.isPending && decide.variables.ticketId === ticketId;
  const refused = approvalRefusal(invoice);

  return (
    <Group gap="xs" wrap="nowrap">
      {(['approve', 'reject'] as const).map((decision) =>
        decision === 'approve' && refused ? (
          <RefusedButton key={decision} label="Approve" reason={refused} size="xs" color="green" variant="light" />
        ) : (
          <Button
            key={decision}
            size="xs"
            color={decision === 'approve' ? 'green' : 'red'}
            variant="light"
            loading={busy && decide.variables.decision === decision}
            disabled={busy && decide.variables.decision !== decision}
            onClick={() =>
              decision === 'approve' && approvalNeedsAccount(invoice) ? onApproveWithAccount() : decideNow(decision)
            }
          >
            {decision === 'approve' ? 'Approve' : 'Reject'}
          </Button>
        ),
      )}
    </Group>
  );
}

type DialogProps = {
  invoice: InvoiceDetails;
  /** the ticket being approved; null: closed */
  ticketId: number | null;
  decide: DecideTicket;
  onClose: () => void;
};

/** The approval of a never-routed deposit's ticket: the operator names the account the money arrived on. */
export function ApproveWithAccountDialog({ invoice, ticketId, decide, onClose }: DialogProps) {
  const close = () => !decide.isPending && onClose();
  return (
    <Modal opened={ticketId !== null} onClose={close} title="Approve ticket" centered>
      {/* mounted per opening: every approval starts with no account and no refusal */}
      {ticketId !== null && <ApproveForm invoice={invoice} ticketId={ticketId} decide={decide} onClose={close} />}
    </Modal>
  );
}

function ApproveForm({ invoice, ticketId, decide, onClose }: DialogProps & { ticketId: number }) {
  const choices = useArrivalAccountChoices(invoice, true)!;
  const [account, setAccount] = useState<string | null>(null);
  // the server's refusal (409 no account, 400 another currency or sandbox-ness) stays in the dialog
  const [refusal, setRefusal] = useState<{ message: string; field?: string } | null>(null);
  const amount = formatMoney(invoice.amount, invoice.currency.dimension, 'en', invoice.currency.code);

  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!account) return;
        setRefusal(null);
        decide.mutate(
          { ticketId, decision: 'approve', peopleAccountId: Number(account) },
          {
            onSuccess: () => {
              toast.success(SUCCESS.approve);
              onClose();
            },
            onError: (err) =>
              setRefusal({
                message: actionErrorMessage(err, 'Failed to approve the ticket'),
                field: isApiError(err) ? err.fields?.peopleAccountId : undefined,
              }),
          },
        );
      }}
    >
      <Stack>
        <Text>
          Approving ticket #{ticketId} sets this {invoice.isTestProcessing ? 'test ' : ''}deposit of {amount} to Done.
        </Text>
        <ArrivalAccountSelect
          choices={choices}
          value={account}
          onChange={(v) => {
            setAccount(v);
            setRefusal(null);
          }}
          error={refusal?.field}
          disabled={decide.isPending}
        />
        {refusal && (
          <Alert color="red" variant="light" title="Not approved">
            {refusal.message}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={decide.isPending}>
            Cancel
          </Button>
          <Button type="submit" color="green" disabled={!account} loading={decide.isPending}>
            Approve
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
