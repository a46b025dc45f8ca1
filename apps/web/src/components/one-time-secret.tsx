import type { ReactNode } from 'react';
import { Alert, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { CopyIconButton } from './copy-icon-button';

type Props = {
  /** what the value is, e.g. "One-time password" */
  label: string;
  value: string;
  /** what the reader must know about it (who must change it, how long the old one lasts) */
  children?: ReactNode;
};

/**
 * A secret the server hands out exactly once (a one-time password, a webhook secret): shown in
 * full with a copy control and the warning that it cannot be shown again.
 */
export function OneTimeSecret({ label, value, children }: Props) {
  return (
    <Stack gap="sm">
      <TextInput
        label={label}
        value={value}
        readOnly
        size="md"
        spellCheck={false}
        onFocus={(e) => e.currentTarget.select()}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        rightSectionWidth={44}
        rightSection={<CopyIconButton value={value} what={label.toLowerCase()} />}
      />
      <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />}>
        <Stack gap={4}>
          <Text size="sm">It is shown only this once: copy it now and pass it on safely.</Text>
          {children}
        </Stack>
      </Alert>
    </Stack>
  );
}
