import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconCashRegister } from '@tabler/icons-react';

export function Logo() {
  return (
    <Group gap="xs" wrap="nowrap">
      <ThemeIcon size={34} radius="md" variant="filled" aria-hidden>
        <IconCashRegister size={20} />
      </ThemeIcon>
      <Text fw={700} fz="lg">
        Paydesk
      </Text>
    </Group>
  );
}
