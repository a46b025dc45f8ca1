import { useState } from 'react';
import { Button, Group, Modal, TextInput } from '@mantine/core';
import { changeInvoiceAmountBody, type Invoice } from '@paydesk/contracts/invoices';
import { AMOUNT_INPUT_ERRORS, parseAmountChange, sanitizeAmountInput } from '@paydesk/contracts/money';
import { toast } from '../../../components/toast';
import { actionErrorMessage } from '../../../lib/api';
import { useChangeAmount } from '../api/invoice-actions';
import { ReasonDialog } from './reason-dialog';

type Step = { kind: 'closed' } | { kind: 'input' } | { kind: 'confirm'; minor: number; display: string };

/** Two-step amount change of SPEC §4/§5: the input dialog, then 'Are you sure…?' with the reason. */
export function ChangeAmountButton({ invoice }: { invoice: Invoice }) {
  const [step, setStep] = useState<Step>({ kind: 'closed' });
  const [raw, setRaw] = useState('');
  const [error, setError] = useState<string | null>(null);
  const change = useChangeAmount(invoice.invoiceId);

  const close = () => {
    setStep({ kind: 'closed' });
    setRaw('');
    setError(null);
  };

  return (
    <>
      <Button variant="default" onClick={() => setStep({ kind: 'input' })}>
        Change amount
      </Button>
      <Modal opened={step.kind === 'input'} onClose={close} title="Change amount" centered>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const r = parseAmountChange(raw, invoice.currency.dimension);
            if (!r.ok) return setError(r.error);
            // the server's rule for the body, checked here so a 0 never reaches the confirmation step
            if (!changeInvoiceAmountBody.shape.amount.safeParse(r.minor).success) {
              return setError(AMOUNT_INPUT_ERRORS.positive);
            }
            setError(null);
            setStep({ kind: 'confirm', minor: r.minor, display: r.display });
          }}
        >
          <TextInput
            label={`Amount, ${invoice.currency.code}`}
            inputMode="decimal"
            autoComplete="off"
            data-autofocus
            value={raw}
            error={error}
            onChange={(e) => {
              setRaw(sanitizeAmountInput(e.currentTarget.value));
              setError(null);
            }}
          />
          <Group justify="flex-end" mt="lg">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit">Change</Button>
          </Group>
        </form>
      </Modal>
      <ReasonDialog
        opened={step.kind === 'confirm'}
        title="Confirm amount"
        message={step.kind === 'confirm' ? `Are you sure you want to change the amount to ${step.display}?` : ''}
        loading={change.isPending}
        onCancel={close}
        onConfirm={(reason) => {
          if (step.kind !== 'confirm') return;
          change.mutate(
            { amount: step.minor, reason },
            {
              onSuccess: () => toast.success('Successfully changed'),
              onError: (e) => toast.error(actionErrorMessage(e, 'Failed to change status')),
              onSettled: close,
            },
          );
        }}
      />
    </>
  );
}
