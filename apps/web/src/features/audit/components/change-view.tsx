import { useId } from 'react';
import { Code, Text } from '@mantine/core';
import { formatChange } from '../model/format-change';

/** One side of an audit record's change (before or after). */
export function ChangeView({ label, value }: { label: string; value: unknown }) {
  const text = formatChange(value);
  const id = useId();
  return (
    <div role="group" aria-labelledby={id} style={{ minWidth: 0 }}>
      <Text size="xs" fw={600} tt="uppercase" c="dimmed" mb={4} id={id}>
        {label}
      </Text>
      {text === null ? (
        <Text size="sm" c="dimmed">
          —
        </Text>
      ) : (
        <Code
          block
          bg="white"
          style={{
            whiteSpace: 'pre-wrap',
            wordBreak: 'break-word',
            border: '1px solid var(--mantine-color-gray-3)',
          }}
        >
          {text}
        </Code>
      )}
    </div>
  );
}
