import { Button, Group, Modal, Text } from '@mantine/core';

type Props = { opened: boolean; loading: boolean; onConfirm: () => void; onCancel: () => void };

/** The only way from test to production; there is no way back in the UI. */
export function ConfirmProductionDialog({ opened, loading, onConfirm, onCancel }: Props) {
  return (
    <Modal opened={opened} onClose={onCancel} title="State changing" centered>
      <Text mb="lg">Are you sure to switch current terminal to production state?</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel} disabled={loading}>
          Cancel
        </Button>
        <Button color="orange" onClick={onConfirm} loading={loading}>
          Confirm
        </Button>
      </Group>
    </Modal>
  );
}
