import { Alert } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useMatches } from 'react-router';
import { refusalMessage } from '@paydesk/contracts/permissions';

/** Route handles carry the page's name as people say it (router.tsx). */
const pageTitleOf = (handle: unknown) =>
  typeof handle === 'object' && handle !== null && 'title' in handle && typeof handle.title === 'string'
    ? handle.title
    : undefined;

/**
 * What a user sees instead of a screen its role does not open: which page, and what is not allowed, in words,
 * never a permission code ("You don't have access to Monitoring. Your role does not allow you to …").
 */
export function Refusal({ missing, message }: { missing?: readonly string[]; message?: string }) {
  const page = useMatches()
    .map((m) => pageTitleOf(m.handle))
    .filter(Boolean)
    .at(-1);
  return (
    <Alert
      color="gray"
      icon={<IconLock size={18} aria-hidden />}
      title={page ? `You don't have access to ${page}` : 'Not available for your role'}
    >
      {message ?? refusalMessage(missing ?? [])}
    </Alert>
  );
}
