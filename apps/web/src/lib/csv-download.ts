import { useCallback, useRef, useState } from 'react';
import { apiFetch, type QueryParams } from './api';
import { saveFile } from './save-file';

export type CsvProgress = { bytes: number; rows: number };
export type CsvSource = {
  /** the API path of the streamed CSV */
  path: string;
  /** the file name the browser saves it under */
  filename: string;
  /** false for exports that carry their own merchant filter instead of the picker's scope */
  scoped?: boolean;
};

const NEWLINE = 10;

/**
 * Fetches a streamed CSV for the given filters, reporting bytes and rows as they arrive, then
 * hands the file to the browser. A new call or `cancel` aborts the one in flight.
 */
export function useCsvDownload({ path, filename, scoped = true }: CsvSource) {
  const [progress, setProgress] = useState<CsvProgress | null>(null);
  const abortRef = useRef<AbortController | null>(null);

  const cancel = useCallback(() => {
    abortRef.current?.abort();
    abortRef.current = null;
    setProgress(null);
  }, []);

  const download = useCallback(
    async (query: QueryParams) => {
      abortRef.current?.abort();
      const abort = new AbortController();
      abortRef.current = abort;
      setProgress({ bytes: 0, rows: 0 });
      try {
        const res = await apiFetch(path, { query, scoped, signal: abort.signal, timeoutMs: 30 * 60_000 });
        const reader = res.body!.getReader();
        const chunks: Uint8Array[] = [];
        let bytes = 0;
        let lines = 0;
        let lastPaint = 0;
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          chunks.push(value);
          bytes += value.byteLength;
          for (let i = 0; i < value.length; i++) if (value[i] === NEWLINE) lines++;
          const now = performance.now();
          if (now - lastPaint > 100) {
            lastPaint = now;
            setProgress({ bytes, rows: Math.max(0, lines - 1) });
          }
        }
        saveFile(new Blob(chunks as BlobPart[], { type: 'text/csv' }), filename);
        return { bytes, rows: Math.max(0, lines - 1) };
      } finally {
        if (abortRef.current === abort) {
          abortRef.current = null;
          setProgress(null);
        }
      }
    },
    [path, filename, scoped],
  );

  return { download, cancel, progress };
}
