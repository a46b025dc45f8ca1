import { useState } from 'react';
import { Alert, Box, Button, Checkbox, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy, IconDownload } from '@tabler/icons-react';
import { saveFile } from '../../../lib/save-file';
import { recoveryCodesFileName, recoveryCodesText } from '../model/two-factor';

type Props = {
  codes: readonly string[];
  username: string;
  /** after "I have saved them": the codes are gone from the screen for good */
  onDone: () => void;
  doneLabel?: string;
};

/**
 * The ten recovery codes, shown exactly once: copy or download them, then confirm they are saved before the
 * screen lets go of them.
 */
export function RecoveryCodes({ codes, username, onDone, doneLabel = 'Done' }: Props) {
  const [saved, setSaved] = useState(false);
  const [madeAt] = useState(() => new Date());

  return (
    <Stack gap="md">
      <Alert
        color="yellow"
        variant="light"
        icon={<IconAlertTriangle size={18} aria-hidden />}
        title="Save your recovery codes now"
        // the light yellow alert's own title colour is below WCAG AA contrast on its background
        styles={{ title: { color: 'var(--mantine-color-dark-8)' } }}
      >
        If you lose your phone, each code signs you in once instead of a code from the app. They are shown only this
        once: keep them in a password manager or print them.
      </Alert>
      <Box
        component="ul"
        aria-label="Recovery codes"
        p="md"
        m={0}
        style={{
          listStyle: 'none',
          display: 'grid',
          // two columns of five at any width: 3 + 3 + 3 + 1 reads as if one were missing
          gridTemplateColumns: 'repeat(2, max-content)',
          gap: 'var(--mantine-spacing-xs) var(--mantine-spacing-xl)',
          border: '1px solid var(--mantine-color-gray-3)',
          borderRadius: 'var(--mantine-radius-md)',
          background: 'var(--mantine-color-gray-0)',
        }}
      >
        {codes.map((code) => (
          <li key={code}>
            <Code fz="md" bg="transparent" c="dark.8">
              {code}
            </Code>
          </li>
        ))}
      </Box>
      <Group gap="sm">
        <CopyButton value={codes.join('\n')}>
          {({ copied, copy }) => (
            <Button
              variant="default"
              onClick={copy}
              leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
            >
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
        <Button
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden />}
          onClick={() =>
            saveFile(
              new Blob([recoveryCodesText(codes, username, madeAt)], { type: 'text/plain;charset=utf-8' }),
              recoveryCodesFileName(username),
            )
          }
        >
          Download .txt
        </Button>
      </Group>
      <Checkbox
        label="I have saved them"
        description="You cannot see these codes again; you can make new ones later."
        checked={saved}
        onChange={(e) => setSaved(e.currentTarget.checked)}
      />
      <Group justify="flex-end">
        <Button onClick={onDone} disabled={!saved}>
          {doneLabel}
        </Button>
      </Group>
      {!saved && (
        <Text size="xs" c="dimmed" ta="right" aria-live="polite">
          Tick “I have saved them” to finish.
        </Text>
      )}
    </Stack>
  );
}
