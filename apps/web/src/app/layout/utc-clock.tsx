import { useEffect, useState } from 'react';
import { Group, Text } from '@mantine/core';

const utcTime = () => new Date().toISOString().slice(11, 19); // HH:MM:SS in UTC

/** Live UTC clock refreshed every second; only this component re-renders. */
export function UtcClock() {
  const [now, setNow] = useState(utcTime);
  useEffect(() => {
    const id = window.setInterval(() => setNow(utcTime()), 1000);
    return () => window.clearInterval(id);
  }, []);
  return (
    <Group gap={6} wrap="nowrap" visibleFrom="sm">
      <Text size="xs" c="dimmed" fw={600} aria-hidden>
        UTC
      </Text>
      <Text
        role="timer"
        aria-label="UTC time"
        ff="monospace"
        size="sm"
        fw={500}
        style={{ fontVariantNumeric: 'tabular-nums' }}
      >
        {now}
      </Text>
    </Group>
  );
}
