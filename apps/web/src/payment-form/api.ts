import type {
  BankOption,
  FormCompleteBody,
  FormCredentialBody,
  FormCredentials,
  FormInit,
} from '@paydesk/contracts/payment-form';
import type { InvoiceStatus } from '@paydesk/contracts/statuses';

// Types only from contracts: the schemas stay on the server so the form's bundle carries no zod.
const PREFIX = '/api/payments/form';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** the request fields the server refused, by name */
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const isAbort = (e: unknown) => e instanceof DOMException && e.name === 'AbortError';

type CallInit = { method?: string; body?: unknown; signal?: AbortSignal; retry?: boolean };

/** Requests that only read, or that the server answers the same way when repeated, retry a 5xx once. */
async function call<T>(formId: string, path: string, init: CallInit = {}): Promise<T> {
  try {
    return await send<T>(formId, path, init);
  } catch (e) {
    if (!init.retry || !(e instanceof ApiError) || e.status < 500 || init.signal?.aborted) throw e;
    await new Promise((r) => window.setTimeout(r, 500));
    return send<T>(formId, path, init);
  }
}

async function send<T>(formId: string, path: string, init: CallInit): Promise<T> {
  const res = await fetch(`${PREFIX}/${encodeURIComponent(formId)}${path}`, {
    method: init.method ?? 'POST',
    headers:
      init.body === undefined
        ? { accept: 'application/json' }
        : { accept: 'application/json', 'content-type': 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: init.signal,
    credentials: 'omit',
  });
  const json = (await res.json().catch(() => null)) as {
    data?: T;
    error?: { code?: string; message?: string; fields?: Record<string, string> };
  } | null;
  if (!res.ok || !json || json.data === undefined) {
    throw new ApiError(
      res.status,
      json?.error?.code ?? 'HTTP_ERROR',
      json?.error?.message ?? res.statusText,
      json?.error?.fields,
    );
  }
  return json.data;
}

export type CredentialResult = { amount: number; credentials: FormCredentials | null };

export const formApi = {
  init: (formId: string, signal?: AbortSignal) => call<FormInit>(formId, '/init', { body: {}, signal, retry: true }),
  credential: (formId: string, body: FormCredentialBody, signal?: AbortSignal) =>
    call<CredentialResult>(formId, '/credential', { body, signal, retry: true }),
  complete: (formId: string, body: FormCompleteBody) =>
    call<{ successUrl: string | null }>(formId, '/complete', { body }),
  status: (formId: string, signal?: AbortSignal) =>
    call<{ status: InvoiceStatus }>(formId, '/status', { body: {}, signal, retry: true }),
  banks: (formId: string, signal?: AbortSignal) =>
    call<BankOption[]>(formId, '/banks/sbp', { method: 'GET', signal, retry: true }),
  support: (formId: string, body: { supportCode?: string; description?: string }) =>
    call<{ ticketId: number; status: string }>(formId, '/support', { body }),
};
