import type { ReactNode } from 'react';
import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { INVOICE_REASON_MAX, changeInvoiceStatusBody } from '@paydesk/contracts/invoices';
import type { ArrivalAccountChoices } from '../api/arrival-accounts';
import { ArrivalAccountSelect } from './arrival-account-select';

/** The reason part of a correction's payload: the same rule the server applies (3–500 characters). */
const reasonForm = changeInvoiceStatusBody.pick({ reason: true });
type ReasonForm = { reason: string };

type Props = {
  opened: boolean;
  title: string;
  message: ReactNode;
  loading?: boolean;
  /** when given, the operator must also name the provider account the money arrived on */
  accounts?: ArrivalAccountChoices;
  onConfirm: (reason: string, accountId?: number) => void;
  onCancel: () => void;
};

/**
 * The confirmation of an operator correction (status, amount): every correction says why, and the
 * audit trail keeps the reason.
 */
export function ReasonDialog({ opened, title, message, loading, accounts, onConfirm, onCancel }: Props) {
  return (
    <Modal opened={opened} onClose={onCancel} title={title} centered>
      {/* mounted per opening: each correction starts with an empty reason */}
      {opened && (
        <ReasonFormBody
          message={message}
          loading={loading}
          accounts={accounts}
          onConfirm={onConfirm}
          onCancel={onCancel}
        />
      )}
    </Modal>
  );
}

function ReasonFormBody({ message, loading, accounts, onConfirm, onCancel }: Omit<Props, 'opened' | 'title'>) {
  const [account, setAccount] = useState<string | null>(null);
  const [accountError, setAccountError] = useState<string | undefined>();
  const form = useForm<ReasonForm>({
    resolver: zodResolver(reasonForm),
    defaultValues: { reason: '' },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const error = form.formState.errors.reason?.message;

  return (
    <form
      onSubmit={form.handleSubmit((v) => {
        if (accounts && !account) return setAccountError('Choose the account the money arrived on');
        onConfirm(v.reason, account ? Number(account) : undefined);
      })}
      noValidate
    >
      <Stack>
        <Text>{message}</Text>
        {accounts && (
          <ArrivalAccountSelect
            choices={accounts}
            value={account}
            onChange={(v) => {
              setAccount(v);
              setAccountError(undefined);
            }}
            error={accountError}
          />
        )}
        <Textarea
          label="Reason"
          description="Recorded in the audit trail with your name"
          withAsterisk
          autosize
          minRows={2}
          maxRows={6}
          maxLength={INVOICE_REASON_MAX}
          data-autofocus
          error={error}
          {...form.register('reason')}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={loading}>
            Cancel
          </Button>
          <Button type="submit" loading={loading}>
            Confirm
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
