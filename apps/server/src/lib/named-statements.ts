import { createHash } from 'node:crypto';
import type pg from 'pg';

/*
 * Named statements on PostgreSQL (speed-up `named-statements`, docs/performance.md): every statement sent with
 * parameters goes as a named prepared statement, its name a hash of its text, so that each connection parses and
 * plans it once and then only binds and executes it, as pgbench -M prepared does. node-postgres keeps the names a
 * connection has prepared and skips the Parse message for them.
 *
 * Bounded: at most MAX_NAMED_PER_CONNECTION names a connection; past that, new texts go unnamed (a statement with
 * values inlined, a report's one-off text). Never on the embedded database, whose connections share one session.
 */

/** Prepared statements a connection keeps; each holds its plan in the backend's memory. */
const MAX_NAMED_PER_CONNECTION = 200;
/** Texts seen, with their names: hashed once a process. */
const names = new Map<string, string>();
const MAX_TEXTS = 5_000;
/** Texts a connection refused to run as prepared (a schema change under a plan): sent unnamed from then on. */
const unnamed = new Set<string>();
const patched = new WeakSet<pg.Pool>();

function nameOf(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `pd_${createHash('sha1').update(text).digest('base64url').slice(0, 24)}`;
    if (names.size < MAX_TEXTS) names.set(text, name);
  }
  return name;
}

type Config = { text?: unknown; name?: unknown; values?: unknown; submit?: unknown };

/** Turns named statements on for the connections the pool opens from now on. */
export function nameStatements(pool: pg.Pool): void {
  if (patched.has(pool)) return;
  patched.add(pool);
  pool.on('connect', (client) => {
    const prepared = new Set<string>();
    // the class's own query, looked up at each call (a bench may wrap it later to record statements: bench/capture.ts)
    const proto = Object.getPrototypeOf(client) as { query: (...args: unknown[]) => unknown };
    const query = (...args: unknown[]) => proto.query.apply(client, args);
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (config: unknown, ...rest: unknown[]) => {
      // query(text, values[, callback]) as query({ text, values }[, callback])
      if (typeof config === 'string' && Array.isArray(rest[0])) {
        config = { text: config, values: rest[0] };
        rest = rest.slice(1);
      }
      const c = config as Config | null;
      if (
        c !== null &&
        typeof c === 'object' &&
        typeof c.text === 'string' &&
        !c.name &&
        typeof c.submit !== 'function' &&
        // drizzle passes the values beside the config: query({ text, types }, values)
        Array.isArray(c.values ?? rest[0]) &&
        ((c.values ?? rest[0]) as unknown[]).length > 0 &&
        !unnamed.has(c.text)
      ) {
        const name = nameOf(c.text);
        if (prepared.has(name) || prepared.size < MAX_NAMED_PER_CONNECTION) {
          prepared.add(name);
          const text = c.text;
          const result = query({ ...c, name }, ...rest);
          // PostgreSQL refuses a prepared plan whose result columns a migration changed: that text goes unnamed
          if (result instanceof Promise) {
            result.catch((err: { code?: string; message?: string }) => {
              if (err?.code === '0A000' && /cached plan must not change result type/.test(err.message ?? '')) {
                unnamed.add(text);
              }
            });
          }
          return result;
        }
      }
      return query(config, ...rest);
    };
  });
}
