import { useState } from 'react';
import { Select, Stack, Text } from '@mantine/core';
import { invoiceRuleInput, type InvoiceDetails } from '@paydesk/contracts/invoices';
import { statusChangeRefusal, statusExistsInFlow } from '@paydesk/contracts/statuses';
import { toast } from '../../../components/toast';
import { actionErrorMessage } from '../../../lib/api';
import { SENT_FOR_APPROVAL } from '../../../lib/approvals';
import { useChangeStatus } from '../api/invoice-actions';
import { useInvoiceStatuses } from '../api/invoice-statuses';
import { isUnroutedDeposit, useArrivalAccountChoices } from '../api/arrival-accounts';
import { ReasonDialog } from './reason-dialog';

/**
 * Editable status: any other status, after a confirmation that takes the reason; cancel resets the selection.
 * The current status is the badge beside it; the select only offers the others. A status the server would refuse in
 * the invoice's state (e.g. DECLINED while a payout is still with the provider) is offered disabled, with the reason.
 */
export function StatusControl({ invoice }: { invoice: InvoiceDetails }) {
  const { data: statuses = [] } = useInvoiceStatuses();
  const [picked, setPicked] = useState<string | null>(null);
  const change = useChangeStatus(invoice.invoiceId);
  const rule = invoiceRuleInput(invoice);
  // only the statuses of the invoice's flow (PAYED is a deposit status)
  const choices = statuses
    .filter((s) => s.id !== invoice.invoiceStatus.id && statusExistsInFlow(invoice.flowType.code, s.code))
    .map((s) => ({ status: s, refusal: statusChangeRefusal(rule, s.code) }));
  const refusals = new Map(choices.map((c) => [String(c.status.id), c.refusal]));
  const options = choices.map(({ status, refusal }) => ({
    value: String(status.id),
    label: status.value,
    disabled: refusal !== null,
  }));
  const target = statuses.find((s) => String(s.id) === picked);
  // a deposit with no routed account becomes DONE only against the account the money arrived on
  // (docs/engine.md, "One write path for an invoice")
  const needsAccount = target?.code === 'DONE' && isUnroutedDeposit(invoice);
  const accountChoices = useArrivalAccountChoices(invoice, needsAccount);

  return (
    <>
      <Select
        aria-label="Change status"
        placeholder="Change to…"
        data={options}
        value={picked}
        onChange={setPicked}
        size="xs"
        w={180}
        maxDropdownHeight={420}
        comboboxProps={{ withinPortal: true, width: 300, position: 'bottom-end' }}
        renderOption={({ option }) => {
          const refusal = refusals.get(option.value);
          return (
            <Stack gap={2} title={refusal ?? undefined}>
              <Text size="sm">{option.label}</Text>
              {refusal && (
                <Text size="xs" c="dimmed" data-testid="status-refusal">
                  {refusal}
                </Text>
              )}
            </Stack>
          );
        }}
      />
      <ReasonDialog
        opened={target !== undefined}
        title="Change status"
        message={`Are you sure you want to change the status to ${target?.value ?? ''}?`}
        loading={change.isPending}
        accounts={accountChoices}
        onCancel={() => setPicked(null)}
        onConfirm={(reason, peopleAccountId) =>
          change.mutate(
            { statusId: target!.id, reason, ...(peopleAccountId ? { peopleAccountId } : {}) },
            {
              onSuccess: ({ held }) =>
                held ? toast.info(SENT_FOR_APPROVAL) : toast.success('Status changed successfully!'),
              onError: (e) => toast.error(actionErrorMessage(e, 'Failed to change status')),
              onSettled: () => setPicked(null),
            },
          )
        }
      />
    </>
  );
}
