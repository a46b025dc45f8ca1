import { Alert } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { refusalMessage } from '@paydesk/contracts/permissions';

/**
 * What a user sees instead of a screen its role does not open: what is not allowed, in words,
 * never a permission code ("Your role does not allow you to view provider accounts.").
 */
export function Refusal({ missing, message }: { missing?: readonly string[]; message?: string }) {
  return (
    <Alert color="gray" icon={<IconLock size={18} aria-hidden />} title="Not available for your role">
      {message ?? refusalMessage(missing ?? [])}
    </Alert>
  );
}
