import { Code, Group, Stack, Text } from '@mantine/core';
import { CopyIconButton } from '../../../components/copy-icon-button';
import { pemDisplayLines } from '@paydesk/contracts';

/** The stored key in three lines (BEGIN, base64 body, END) with a copy control. */
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
      <CopyIconButton value={pem} what="public key" variant="subtle" color="gray" />
    </Group>
  );
}
