import { Alert, Button, Center, Stack } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { isRouteErrorResponse, useRouteError } from 'react-router';

/** Last-resort screen for a render error or a chunk that failed to load (e.g. after a deploy). */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : 'Unexpected error';
  return (
    <Center h="100dvh" p="md">
      <Stack maw={480}>
        <Alert color="red" title="Something went wrong" icon={<IconAlertCircle aria-hidden />}>
          {message}
        </Alert>
        <Button onClick={() => window.location.reload()}>Reload the page</Button>
      </Stack>
    </Center>
  );
}
