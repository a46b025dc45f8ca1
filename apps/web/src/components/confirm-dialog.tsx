import type { ReactNode } from 'react';
import { Button, Group, Modal, Text } from '@mantine/core';

type Props = {
  opened: boolean;
  title: string;
  message: ReactNode;
  confirmLabel?: string;
  /** red for actions that take something away (disable, replace) */
  danger?: boolean;
  loading?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
};

/** A yes/no confirmation before an action (retry, callback, disabling a user, replacing a key…). */
export function ConfirmDialog({
  opened,
  title,
  message,
  confirmLabel = 'Confirm',
  danger,
  loading,
  onConfirm,
  onCancel,
}: Props) {
  return (
    <Modal opened={opened} onClose={onCancel} title={title} centered>
      <Text mb="lg">{message}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel} disabled={loading}>
          Cancel
        </Button>
        <Button onClick={onConfirm} loading={loading} color={danger ? 'red' : undefined}>
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
