import { Button, Group, Loader, Text } from '@mantine/core';
import { IconDownload, IconX } from '@tabler/icons-react';
import type { QueryParams } from '../lib/api';
import { useCsvDownload, type CsvSource } from '../lib/csv-download';
import { toast } from './toast';

const size = (bytes: number) =>
  bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(0)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

type Props = { source: CsvSource; query: QueryParams; label: string };

/** A CSV export of the current filters: fetch → blob → file, with bytes and rows shown while it streams. */
export function CsvButton({ source, query, label }: Props) {
  const { download, cancel, progress } = useCsvDownload(source);
  if (progress) {
    return (
      <Group gap="xs" wrap="nowrap" role="status" aria-live="polite">
        <Loader size="xs" />
        <Text size="sm" data-testid="csv-progress">
          {progress.rows.toLocaleString('en')} rows · {size(progress.bytes)}
        </Text>
        <Button size="xs" variant="subtle" color="gray" leftSection={<IconX size={14} aria-hidden />} onClick={cancel}>
          Cancel
        </Button>
      </Group>
    );
  }
  return (
    <Button
      variant="default"
      leftSection={<IconDownload size={16} aria-hidden />}
      onClick={() =>
        download(query).catch((e: unknown) => {
          if (e instanceof DOMException && e.name === 'AbortError') return;
          toast.error(e instanceof Error ? e.message : 'Download failed');
        })
      }
    >
      {label}
    </Button>
  );
}
