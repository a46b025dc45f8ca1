import { useState } from 'react';
import { Button, Group, Modal, TextInput } from '@mantine/core';
import { changeInvoiceAmountBody, type Invoice } from '@paydesk/contracts/invoices';
import {
  AMOUNT_INPUT_ERRORS,
  formatMoney,
  minorToMajorString,
  parseAmountChange,
  sanitizeAmountInput,
} from '@paydesk/contracts/money';
import { amountChangeRefusal } from '@paydesk/contracts/statuses';
import { toast } from '../../../components/toast';
import { actionErrorMessage } from '../../../lib/api';
import { SENT_FOR_APPROVAL } from '../../../lib/approvals';
import { useChangeAmount } from '../api/invoice-actions';
import { ReasonDialog } from './reason-dialog';

type Step = { kind: 'closed' } | { kind: 'input' } | { kind: 'confirm'; minor: number; display: string };

/**
 * Two-step amount change: the input dialog, then 'Are you sure…?' with the reason. Amounts are typed and
 * said in major units with the currency, as the card shows them (the request carries minor units).
 */
export function ChangeAmountButton({ invoice }: { invoice: Invoice }) {
  const { dimension, code } = invoice.currency;
  const money = (minor: number) => formatMoney(minor, dimension, 'en', code);
  // the input starts from the current amount, in the units it is typed in
  const current = minorToMajorString(invoice.amount, dimension);
  const [step, setStep] = useState<Step>({ kind: 'closed' });
  const [raw, setRaw] = useState(current);
  const [error, setError] = useState<string | null>(null);
  const change = useChangeAmount(invoice.invoiceId);

  const close = () => {
    setStep({ kind: 'closed' });
    setRaw(current);
    setError(null);
  };

  return (
    <>
      <Button
        variant="default"
        onClick={() => {
          setRaw(current);
          setStep({ kind: 'input' });
        }}
      >
        Change amount
      </Button>
      <Modal opened={step.kind === 'input'} onClose={close} title="Change amount" centered>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const r = parseAmountChange(raw, dimension, code);
            if (!r.ok) return setError(r.error);
            // the server's rules for the body and the invoice, checked here so that what it would refuse (0, the
            // amount the invoice already has) never reaches the confirmation step
            if (!changeInvoiceAmountBody.shape.amount.safeParse(r.minor).success) {
              return setError(AMOUNT_INPUT_ERRORS.positive);
            }
            const refusal = amountChangeRefusal(invoice, r.minor, money);
            if (refusal) return setError(refusal);
            setError(null);
            setStep({ kind: 'confirm', minor: r.minor, display: r.display });
          }}
        >
          <TextInput
            label={`Amount, ${code}`}
            description={`Now ${money(invoice.amount)}`}
            inputMode="decimal"
            autoComplete="off"
            data-autofocus
            onFocus={(e) => e.currentTarget.select()}
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
              onSuccess: ({ held }) => (held ? toast.info(SENT_FOR_APPROVAL) : toast.success('Successfully changed')),
              onError: (e) => toast.error(actionErrorMessage(e, 'Failed to change status')),
              onSettled: close,
            },
          );
        }}
      />
    </>
  );
}
