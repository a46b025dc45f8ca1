import { ActionIcon, Code, Group, Stack, Text, Tooltip, CopyButton } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { pemDisplayLines } from '@paydesk/contracts';

/** The stored key in three lines (BEGIN, base64 body, END) with a copy control (SPEC §2). */
export function PublicKeyView({ pem }: { pem: string | null }) {
  if (!pem) {
    return (
      <Text c="dimmed" size="sm">
        not set
      </Text>
    );
  }
  const lines = pemDisplayLines(pem);
  return (
    <Group align="flex-start" wrap="nowrap" gap="xs">
      <Code block style={{ flex: 1, wordBreak: 'break-all', whiteSpace: 'pre-wrap' }} aria-label="Current public key">
        <Stack gap={0}>
          {(lines ?? [pem]).map((l, i) => (
            <span key={i}>{l}</span>
          ))}
        </Stack>
      </Code>
      <CopyButton value={pem}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
            <ActionIcon
              variant="subtle"
              color={copied ? 'teal' : 'gray'}
              onClick={copy}
              aria-label={copied ? 'Copied' : 'Copy public key'}
            >
              {copied ? <IconCheck size={18} aria-hidden /> : <IconCopy size={18} aria-hidden />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}
