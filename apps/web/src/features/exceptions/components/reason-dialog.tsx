import { useState, type ReactNode } from 'react';
import { Button, Group, Modal, Stack, Textarea } from '@mantine/core';

type Props = {
  opened: boolean;
  title: string;
  /** what the action will do, in words, above the reason */
  children?: ReactNode;
  confirmLabel: string;
  busy: boolean;
  onClose: () => void;
  onConfirm: (reason: string) => void;
};

/** Every action of the desk is audited with the reason a person gave: asked for here, before anything moves. */
export function ReasonDialog({ opened, title, children, confirmLabel, busy, onClose, onConfirm }: Props) {
  const [reason, setReason] = useState('');
  const short = reason.trim().length < 3;
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!short) onConfirm(reason.trim());
        }}
      >
        <Stack>
          {children}
          <Textarea
            label="Reason"
            description="Recorded in the invoice's history and the audit trail (at least 3 characters)"
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            autosize
            minRows={2}
            maxLength={500}
            required
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={short} loading={busy}>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
