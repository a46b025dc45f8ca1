import { Alert, Button, Center, Stack } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { isRouteErrorResponse, useRouteError } from 'react-router';

/** A screen's code that no longer exists on the server: the app was updated while the tab stayed open. */
const isStaleChunk = (error: unknown) =>
  error instanceof Error && /dynamically imported module|Importing a module script failed/i.test(error.message);

/**
 * Last-resort screen for a render error or a chunk that failed to load (e.g. after a deploy): what happened in
 * the app's words, never a stack or a raw exception text.
 */
export function RouteError() {
  const error = useRouteError();
  const [title, message] =
    isRouteErrorResponse(error) && error.status === 404
      ? ["This page doesn't exist", 'Check the link, or go back to the transactions list.']
      : isStaleChunk(error)
        ? ['Paydesk was updated', 'Reload the page to get the new version.']
        : [
            'Something went wrong',
            'This screen could not be shown. Reload the page; if it happens again, contact support.',
          ];
  return (
    <Center h="100dvh" p="md">
      <Stack maw={480}>
        <Alert color="red" title={title} icon={<IconAlertCircle aria-hidden />}>
          {message}
        </Alert>
        <Button onClick={() => window.location.reload()}>Reload the page</Button>
      </Stack>
    </Center>
  );
}
