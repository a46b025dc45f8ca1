import pg from 'pg';

/** One statement a process sent to PostgreSQL, with its parameters and the rows it got back. */
export type CapturedStatement = { text: string; values: unknown[]; rows: Record<string, unknown>[] };

/**
 * Records every statement node-postgres sends from this process (text, parameters, rows) until `stop()`: how a bench
 * learns the exact statements one request runs, to have pgbench run them as its anchor.
 */
export function captureStatements() {
  const log: CapturedStatement[] = [];
  const original = pg.Client.prototype.query;
  const patched = function (this: pg.Client, config: unknown, values?: unknown, callback?: unknown) {
    const c = config as { text?: string; values?: unknown[] } | string;
    const entry: CapturedStatement = {
      text: typeof c === 'string' ? c : (c.text ?? ''),
      values: (typeof c === 'object' && c.values) || (Array.isArray(values) ? values : []),
      rows: [],
    };
    log.push(entry);
    const out = (original as (...a: unknown[]) => unknown).call(this, config, values, callback);
    if (out && typeof (out as Promise<unknown>).then === 'function') {
      (out as Promise<pg.QueryResult>).then(
        (r) => {
          const names = r.fields?.map((f) => f.name) ?? [];
          entry.rows = (r.rows ?? []).map((row) =>
            Array.isArray(row) ? Object.fromEntries(names.map((n, i) => [n, row[i]])) : row,
          );
        },
        () => undefined,
      );
    }
    return out;
  };
  pg.Client.prototype.query = patched as typeof pg.Client.prototype.query;
  return {
    log,
    stop() {
      pg.Client.prototype.query = original;
    },
  };
}
