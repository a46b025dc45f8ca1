import { useState } from 'react';
import { Select } from '@mantine/core';
import type { Invoice } from '@paydesk/contracts/invoices';
import { toast } from '../../../components/toast';
import { actionErrorMessage } from '../../../lib/api';
import { useChangeStatus } from '../api/invoice-actions';
import { useInvoiceStatuses } from '../api/invoice-statuses';
import { ReasonDialog } from './reason-dialog';

/** Editable status (SPEC §4): any other status, after a confirmation that takes the reason; cancel resets the selection. */
export function StatusControl({ invoice }: { invoice: Invoice }) {
  const { data: statuses = [] } = useInvoiceStatuses();
  const [picked, setPicked] = useState<string | null>(null);
  const change = useChangeStatus(invoice.invoiceId);
  const options = statuses
    .filter((s) => s.id !== invoice.invoiceStatus.id)
    .map((s) => ({ value: String(s.id), label: s.value }));
  const target = statuses.find((s) => String(s.id) === picked);

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
        onCancel={() => setPicked(null)}
        onConfirm={(reason) =>
          change.mutate(
            { statusId: target!.id, reason },
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
