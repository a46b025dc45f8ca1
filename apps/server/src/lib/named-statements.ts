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

/** "cached plan must not change result type": feature_not_supported from the plan cache's revalidation. */
const isStalePlan = (err: unknown) => {
  const e = err as { code?: string; routine?: string; message?: string } | null;
  return (
    e?.code === '0A000' &&
    (e.routine === 'RevalidateCachedQuery' || /cached plan must not change result type/.test(e.message ?? ''))
  );
};

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
          // PostgreSQL refuses a prepared plan whose result columns a migration changed: that text goes unnamed, in
          // this process, from its next run on (whether the caller takes a promise or, as pg-pool does, a callback)
          const stale = (err: unknown) => {
            if (isStalePlan(err)) unnamed.add(text);
          };
          const cbAt = rest.findIndex((a) => typeof a === 'function');
          if (cbAt >= 0) {
            const cb = rest[cbAt] as (err: unknown, res: unknown) => void;
            rest = [...rest];
            rest[cbAt] = (err: unknown, res: unknown) => {
              if (err) stale(err);
              cb(err, res);
            };
          }
          const result = query({ ...c, name }, ...rest);
          if (result instanceof Promise) result.catch(stale);
          return result;
        }
      }
      return query(config, ...rest);
    };
  });
}
