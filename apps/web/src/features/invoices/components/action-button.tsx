import { useState, type ReactNode } from 'react';
import { Button, type ButtonProps } from '@mantine/core';
import type { UseMutationResult } from '@tanstack/react-query';
import { toast } from '../../../components/toast';
import { actionErrorMessage } from '../../../lib/api';
import { ConfirmDialog } from '../../../components/confirm-dialog';

type Props = {
  label: string;
  title: string;
  message: ReactNode;
  mutation: UseMutationResult<unknown, Error, void>;
  success: string;
  /** the toast when the server gives no explanation of its own */
  failure: string;
  icon?: ReactNode;
} & Omit<ButtonProps, 'children' | 'onClick'>;

/** A button whose action runs after a confirmation dialog (Retry, Callback). */
export function ConfirmedActionButton({ label, title, message, mutation, success, failure, icon, ...rest }: Props) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="default" leftSection={icon} onClick={() => setOpen(true)} {...rest}>
        {label}
      </Button>
      <ConfirmDialog
        opened={open}
        title={title}
        message={message}
        loading={mutation.isPending}
        onCancel={() => setOpen(false)}
        onConfirm={() =>
          mutation.mutate(undefined, {
            onSuccess: () => toast.success(success),
            onError: (e) => toast.error(actionErrorMessage(e, failure)),
            onSettled: () => setOpen(false),
          })
        }
      />
    </>
  );
}
