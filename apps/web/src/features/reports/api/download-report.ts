import type { ReportKind } from '@paydesk/contracts/reports';
import { apiUrl } from '../../../lib/api';
import { useNavigationDownload } from '../../../lib/csv-download';
import { toast } from '../../../components/toast';

/** The card's validated fields (periodStart, periodEnd and its ids) sent as the query. */
export type ReportRequest = { kind: ReportKind; params: Record<string, string> };

const showRefusal = (e: Error) => toast.error(e.message, 'Could not get the report');

/**
 * GET /api/v1/report/{kind} as CSV, by navigation: the browser streams the file to disk under the server's name
 * (report-{kind}-{from}_{to}.csv) with its own progress; `isPending` until the server answers. A refusal is a toast.
 */
export function useDownloadReport() {
  const { start, preparing } = useNavigationDownload(showRefusal);
  return {
    isPending: preparing,
    mutate: ({ kind, params }: ReportRequest) => start(apiUrl(`/api/v1/report/${kind}`, params)),
  };
}
