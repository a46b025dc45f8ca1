import { useCallback, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError, SESSION_STEPS, apiUrl, type ApiErrorCode, type QueryParams } from './api';
import { meQueryKey } from './session';

export type CsvSource = {
  /** the API path of the streamed CSV */
  path: string;
  /** the file name the server's Content-Disposition gives it (the browser saves it under that name) */
  filename: string;
  /** false for exports that carry their own merchant filter instead of the picker's scope */
  scoped?: boolean;
};

/** Set by the server on a download's response as it starts (apps/server/src/lib/file-download.ts). */
const STARTED_COOKIE = 'paydesk-download-started';
const POLL_MS = 200;
/** For a route that does not set the cookie: the notice ends after this long; a refusal is still reported later. */
const NOTICE_MAX_MS = 15_000;
/**
 * How long the hidden frame stays to hear a refusal from a slow report. Once the browser has taken the file over,
 * removing the frame does not touch the download.
 */
const FRAME_LIFETIME_MS = 30 * 60_000;

export const DOWNLOAD_FAILED = 'The download could not start. Try again.';

/** Codes after which the user must be reloaded: the session ended, or the server wants a step first. */
const SESSION_CODES: readonly ApiErrorCode[] = ['UNAUTHORIZED', ...SESSION_STEPS];

const startedCookieSet = () => document.cookie.split(/;\s*/).some((c) => c.startsWith(`${STARTED_COOKIE}=`));
const clearStartedCookie = () => {
  document.cookie = `${STARTED_COOKIE}=; Max-Age=0; Path=/; SameSite=Strict`;
};

/**
 * What the hidden frame shows once it loaded a page instead of handing a file to the browser: the server's JSON
 * refusal (400, 401, 403, 404 sent before the file started) as an ApiError, a generic error for anything else
 * (an error page the frame may not read), or null while it still holds its empty start page.
 */
export function refusalIn(frame: HTMLIFrameElement): Error | null {
  let doc: Document | null = null;
  try {
    doc = frame.contentDocument;
  } catch {
    doc = null;
  }
  if (!doc) return new Error(DOWNLOAD_FAILED);
  if (doc.URL === 'about:blank') return null;
  const text = (doc.querySelector('pre') ?? doc.body)?.textContent ?? '';
  try {
    const err = (JSON.parse(text) as { error?: { code?: unknown; message?: unknown; fields?: unknown } }).error;
    if (err && typeof err.code === 'string' && typeof err.message === 'string') {
      const fields =
        typeof err.fields === 'object' && err.fields !== null ? (err.fields as Record<string, string>) : undefined;
      return new ApiError(0, err.code as ApiErrorCode, err.message, fields);
    }
  } catch {
    // not JSON: a proxy's or the browser's own error page
  }
  return new Error(DOWNLOAD_FAILED);
}

type DownloadCallbacks = { onStarted: () => void; onRefused: (error: Error) => void };

/**
 * Downloads a same-origin GET URL by navigating a hidden frame to it: the session cookie goes with it (SameSite=Strict
 * allows a same-site navigation; the token is never in the URL) and the browser's download manager streams the file to
 * disk with its own progress, nothing is held in the tab. `onStarted` runs when the response has started (the server's
 * cookie appears) or after NOTICE_MAX_MS; `onRefused` when the frame loads a page instead, i.e. the server refused
 * before streaming, which the page reads back rather than leaving a raw JSON page.
 */
function downloadByNavigation(url: string, { onStarted, onRefused }: DownloadCallbacks) {
  clearStartedCookie();
  const frame = document.createElement('iframe');
  frame.hidden = true;
  frame.tabIndex = -1;
  frame.title = 'Download';
  frame.setAttribute('aria-hidden', 'true');
  frame.dataset.download = '';

  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    clearInterval(poll);
    clearTimeout(noticeTimer);
    onStarted();
  };
  const poll = setInterval(() => {
    if (startedCookieSet()) start();
  }, POLL_MS);
  const noticeTimer = setTimeout(start, NOTICE_MAX_MS);
  const lifetime = setTimeout(() => frame.remove(), FRAME_LIFETIME_MS);

  frame.addEventListener('load', () => {
    const refusal = refusalIn(frame);
    if (!refusal) return;
    started = true;
    clearInterval(poll);
    clearTimeout(noticeTimer);
    clearTimeout(lifetime);
    frame.remove();
    onRefused(refusal);
  });
  frame.src = url;
  document.body.append(frame);
}

/**
 * Starts file downloads by navigation (see downloadByNavigation) and says whether one is still being prepared (the
 * server has not answered yet). A refusal goes to `onRefused`; one that means the session ended or needs a step first
 * also reloads the user, as any other API call would.
 */
export function useNavigationDownload(onRefused: (error: Error) => void) {
  const queryClient = useQueryClient();
  const [preparing, setPreparing] = useState(0);

  const start = useCallback(
    (url: string) => {
      setPreparing((n) => n + 1);
      let done = false;
      const settle = () => {
        if (done) return;
        done = true;
        setPreparing((n) => n - 1);
      };
      downloadByNavigation(url, {
        onStarted: settle,
        onRefused: (error) => {
          settle();
          if (error instanceof ApiError && SESSION_CODES.includes(error.code)) {
            void queryClient.invalidateQueries({ queryKey: meQueryKey });
          }
          onRefused(error);
        },
      });
    },
    [queryClient, onRefused],
  );

  return { start, preparing: preparing > 0 };
}

/** A streamed CSV export of the given filters, downloaded by navigation (the picker's merchant added when scoped). */
export function useCsvDownload({ path, scoped = true }: CsvSource, onRefused: (error: Error) => void) {
  const { start, preparing } = useNavigationDownload(onRefused);
  const download = useCallback((query: QueryParams) => start(apiUrl(path, query, scoped)), [start, path, scoped]);
  return { download, preparing };
}
