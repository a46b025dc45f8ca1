import { memo } from 'react';
import { Button, Loader } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { QueryParams } from '../lib/api';
import { useCsvDownload, type CsvSource } from '../lib/csv-download';
import { toast } from './toast';

type Props = { source: CsvSource; query: QueryParams; label: string };

const showRefusal = (e: Error) => toast.error(e.message, 'Download failed');

/**
 * A CSV export of the current filters, downloaded by navigation: the browser's download manager streams it to disk
 * and shows its progress; until the server answers the button says "Preparing your file…".
 */
export const CsvButton = memo(function CsvButton({ source, query, label }: Props) {
  const { download, preparing } = useCsvDownload(source, showRefusal);
  return (
    <Button
      variant="default"
      leftSection={preparing ? <Loader size={14} aria-hidden /> : <IconDownload size={16} aria-hidden />}
      disabled={preparing}
      aria-live="polite"
      onClick={() => download(query)}
    >
      {preparing ? 'Preparing your file…' : label}
    </Button>
  );
});
