import type { ReactNode } from 'react';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { INVOICE_REASON_MAX, changeInvoiceStatusBody } from '@paydesk/contracts/invoices';

/** The reason part of a correction's payload: the same rule the server applies (3–500 characters). */
const reasonForm = changeInvoiceStatusBody.pick({ reason: true });
type ReasonForm = { reason: string };

type Props = {
  opened: boolean;
  title: string;
  message: ReactNode;
  loading?: boolean;
  onConfirm: (reason: string) => void;
  onCancel: () => void;
};

/**
 * The confirmation of an operator correction (status, amount): every correction says why, and the
 * audit trail keeps the reason (DESIGN §3).
 */
export function ReasonDialog({ opened, title, message, loading, onConfirm, onCancel }: Props) {
  return (
    <Modal opened={opened} onClose={onCancel} title={title} centered>
      {/* mounted per opening: each correction starts with an empty reason */}
      {opened && <ReasonFormBody message={message} loading={loading} onConfirm={onConfirm} onCancel={onCancel} />}
    </Modal>
  );
}

function ReasonFormBody({ message, loading, onConfirm, onCancel }: Omit<Props, 'opened' | 'title'>) {
  const form = useForm<ReasonForm>({
    resolver: zodResolver(reasonForm),
    defaultValues: { reason: '' },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const error = form.formState.errors.reason?.message;

  return (
    <form onSubmit={form.handleSubmit((v) => onConfirm(v.reason))} noValidate>
      <Stack>
        <Text>{message}</Text>
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
