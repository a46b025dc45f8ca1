import { useMutation } from '@tanstack/react-query';
import { reportFileName, type ReportKind } from '@paydesk/contracts/reports';
import { apiFetch } from '../../../lib/api';
import { toast } from '../../../components/toast';

/** Long reports stream for a while: allow more than the default 30 s. */
const REPORT_TIMEOUT_MS = 5 * 60_000;

function fileNameFrom(res: Response, fallback: string) {
  const cd = res.headers.get('content-disposition') ?? '';
  return /filename="([^"]+)"/.exec(cd)?.[1] ?? fallback;
}

/** Hands a blob to the browser as a file download. */
function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The card's validated fields (periodStart, periodEnd and its ids) sent as the query. */
export type ReportRequest = { kind: ReportKind; params: Record<string, string> };

/** GET /api/v1/report/{kind} as CSV; errors are shown as toasts with the server's message. */
export function useDownloadReport() {
  return useMutation({
    mutationFn: async ({ kind, params }: ReportRequest) => {
      const res = await apiFetch(`/api/v1/report/${kind}`, { query: params, timeoutMs: REPORT_TIMEOUT_MS });
      const blob = await res.blob();
      saveBlob(blob, fileNameFrom(res, reportFileName(kind, params.periodStart ?? '', params.periodEnd ?? '')));
    },
    onError: (e) => toast.error(e instanceof Error ? e.message : 'Could not get the report'),
  });
}
