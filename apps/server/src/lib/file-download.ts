import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Set (readable by the page, 30 s) on a file download's response as it starts: the back-office clears it, navigates
 * a hidden frame to the download URL and ends its "Preparing your file…" notice when the cookie reappears.
 * The same name is in apps/web/src/lib/csv-download.ts. It carries nothing: no session data, no identifiers.
 */
const DOWNLOAD_STARTED_COOKIE = 'paydesk-download-started';

/** Headers of a file the browser's download manager streams to disk (attachment, never cached, never sniffed). */
export function attachmentHeaders(reply: FastifyReply, filename: string, contentType = 'text/csv; charset=utf-8') {
  return reply
    .header('content-type', contentType)
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'no-store')
    .header('set-cookie', `${DOWNLOAD_STARTED_COOKIE}=1; Path=/; Max-Age=30; SameSite=Strict`);
}

/**
 * Route onSend hook of a download route: the back-office loads it in a hidden same-origin frame, so it may be framed
 * by the app itself (frame-ancestors 'self' instead of 'none'; X-Frame-Options stays SAMEORIGIN). That is what lets
 * the page read a refusal sent before the file started (a 400, 401 or 403 JSON body) and tell the user in words
 * instead of showing a raw JSON page. Only these routes' answers (a CSV attachment or a JSON error) are framable.
 */
export async function framableBySameOrigin(_req: FastifyRequest, reply: FastifyReply, payload: unknown) {
  const csp = reply.getHeader('content-security-policy');
  if (typeof csp === 'string') {
    reply.header('content-security-policy', csp.replace(/frame-ancestors 'none'/, "frame-ancestors 'self'"));
  }
  return payload;
}
