import { useState } from 'react';
import { Select } from '@mantine/core';
import type { Invoice } from '@paydesk/contracts/invoices';
import { statusExistsInFlow } from '@paydesk/contracts/statuses';
import { toast } from '../../../components/toast';
import { actionErrorMessage } from '../../../lib/api';
import { useChangeStatus } from '../api/invoice-actions';
import { useInvoiceStatuses } from '../api/invoice-statuses';
import { isUnroutedDeposit, useArrivalAccountChoices } from '../api/arrival-accounts';
import { ReasonDialog } from './reason-dialog';

/** Editable status (SPEC §4): any other status, after a confirmation that takes the reason; cancel resets the selection. */
export function StatusControl({ invoice }: { invoice: Invoice }) {
  const { data: statuses = [] } = useInvoiceStatuses();
  const [picked, setPicked] = useState<string | null>(null);
  const change = useChangeStatus(invoice.invoiceId);
  // only the statuses of the invoice's flow (PAYED is a deposit status)
  const options = statuses
    .filter((s) => s.id !== invoice.invoiceStatus.id && statusExistsInFlow(invoice.flowType.code, s.code))
    .map((s) => ({ value: String(s.id), label: s.value }));
  const target = statuses.find((s) => String(s.id) === picked);
  // DESIGN §3: a deposit with no routed account becomes DONE only against the account the money arrived on
  const needsAccount = target?.code === 'DONE' && isUnroutedDeposit(invoice);
  const accountChoices = useArrivalAccountChoices(invoice, needsAccount);

  return (
    <>
      <Select
        aria-label="Change status"
        placeholder={invoice.invoiceStatus.value}
        data={options}
        value={picked}
        onChange={setPicked}
        size="xs"
        w={180}
        comboboxProps={{ withinPortal: true }}
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
              onSuccess: () => toast.success('Status changed successfully!'),
              onError: (e) => toast.error(actionErrorMessage(e, 'Failed to change status')),
              onSettled: () => setPicked(null),
            },
          )
        }
      />
    </>
  );
}
