import { describe, expect, it } from 'vitest';
import { ApiError } from './api';
import { DOWNLOAD_FAILED, refusalIn } from './csv-download';

/** A frame as refusalIn sees it: the document it loaded (null when the browser will not let the page read it). */
function frameWith(doc: { URL: string; text: string } | null): HTMLIFrameElement {
  const body = doc && { textContent: doc.text };
  const contentDocument = doc && { URL: doc.URL, body, querySelector: () => body };
  return { contentDocument } as unknown as HTMLIFrameElement;
}

const url = 'http://localhost/api/v1/report/invoice?periodStart=2026-02-10&periodEnd=2026-02-01';

describe('refusalIn: what the hidden download frame loaded instead of a file', () => {
  it('nothing while it holds its empty start page (the file went to the browser)', () => {
    expect(refusalIn(frameWith({ URL: 'about:blank', text: '' }))).toBeNull();
  });

  it("the server's refusal in the app's words", () => {
    const validation = refusalIn(
      frameWith({
        URL: url,
        text: JSON.stringify({
          error: {
            code: 'VALIDATION_ERROR',
            message: 'Invalid querystring: periodEnd: periodEnd must not be before periodStart',
            fields: { periodEnd: 'periodEnd must not be before periodStart' },
          },
        }),
      }),
    );
    expect(validation).toBeInstanceOf(ApiError);
    expect(validation).toMatchObject({ code: 'VALIDATION_ERROR', message: 'periodEnd must not be before periodStart' });

    const forbidden = refusalIn(
      frameWith({
        URL: url,
        text: '{"error":{"code":"FORBIDDEN","message":"Your role does not allow you to open reports."}}',
      }),
    );
    expect(forbidden?.message).toBe('Your role does not allow you to open reports.');
    const internal = refusalIn(
      frameWith({ URL: url, text: '{"error":{"code":"INTERNAL","message":"db down at x.ts:12"}}' }),
    );
    expect(internal?.message).toBe('Something went wrong on our side. Try again; if it persists, contact support.');
  });

  it('a page it cannot read or understand is a plain "could not start"', () => {
    expect(refusalIn(frameWith(null))?.message).toBe(DOWNLOAD_FAILED);
    expect(refusalIn(frameWith({ URL: url, text: '<h1>502 Bad Gateway</h1>' }))?.message).toBe(DOWNLOAD_FAILED);
    expect(refusalIn(frameWith({ URL: url, text: '{"data":[]}' }))?.message).toBe(DOWNLOAD_FAILED);
  });
});
