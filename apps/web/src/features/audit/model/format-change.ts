import { stringifyJson } from '@paydesk/contracts/exact-json';
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A flat record as "key: value" lines; anything else (arrays, scalars) as pretty JSON. */
export function formatChange(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (isRecord(value)) {
    return Object.entries(value)
      .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : stringifyJson(v, 2)}`)
      .join('\n');
  }
  return typeof value === 'string' ? value : stringifyJson(value, 2);
}
