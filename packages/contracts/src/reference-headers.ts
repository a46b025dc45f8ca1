/** The reference lists' header ids, without zod (the back-office's first screen imports them: docs/performance.md). */

/** Reference lists by header id. */
const REFERENCE_HEADERS = {
  99: 'gender',
  100: 'event type',
  101: 'currency',
  102: 'parameter type',
  103: 'requisite type',
  104: 'contact type',
  105: 'terminal attribute type',
  106: 'fee type',
  107: 'ticket issue type',
  108: 'notification type',
  110: 'payment channel type',
  111: 'channel integration type',
  112: 'client cohorts',
  113: 'terminal pool status',
  114: 'terminal pool type',
  200: 'flow type',
  201: 'payment status',
  202: 'transaction status',
  203: 'transaction type',
  204: 'ticket status',
  205: 'bank name',
} as const;
export type ReferenceHeaderId = keyof typeof REFERENCE_HEADERS;
export const REFERENCE_HEADER_IDS = Object.keys(REFERENCE_HEADERS).map(Number) as ReferenceHeaderId[];
export const isReferenceHeaderId = (n: number): n is ReferenceHeaderId => n in REFERENCE_HEADERS;

export const TERMINAL_ATTRIBUTE_TYPE_HEADER = 105;
export const FLOW_TYPE_HEADER = 200;
