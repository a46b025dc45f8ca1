import { DrizzleQueryError, is, Placeholder, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { QueryResult, QueryResultRow } from 'pg';
import type { DbHandle } from '../db/create-db';

/** A statement's values, or drizzle placeholders where the statement is rendered once (see `prepared`). */
export type Params<T> = { [K in keyof T]: T[K] | Placeholder };

const dialect = new PgDialect();

/**
 * A hot statement rendered to SQL text once, not on every call: `build` is the statement's usual drizzle builder,
 * called here with a placeholder for every value (its values must be flat: the builder may not compute with them);
 * each run only puts the call's values in their places. On PostgreSQL it is also a named prepared statement (parsed
 * once per connection); on the embedded database it is sent unnamed, because pglite-socket's connections share one
 * backend session and would see each other's names.
 *
 * The same builder called with real values gives the same text (drizzle's own rendering), which is how code that
 * needs a drizzle `SQL` (inside a transaction, or pgbench's script) runs the very same statement.
 */
export function prepared<T extends Record<string, unknown>>(name: string, build: (p: Params<T>) => SQL) {
  const handedOut = new Set<string>();
  const placeholders = new Proxy({} as Params<T>, {
    get: (_target, key) => {
      if (typeof key !== 'string') return undefined;
      handedOut.add(key);
      return sql.placeholder(key);
    },
  });
  const { sql: text, params } = dialect.sqlToQuery(build(placeholders));
  // each parameter: the name of the value that goes there, or a constant of the statement
  const keys = params.map((p) => (is(p, Placeholder) ? (p.name as keyof T) : undefined));
  // a builder that computed with a value (a template string, arithmetic) would freeze its placeholder into a constant
  const missing = [...handedOut].filter((k) => !keys.includes(k as keyof T));
  const odd = params.filter((p) => !is(p, Placeholder) && p !== null && typeof p === 'object');
  if (missing.length || odd.length) {
    throw new Error(`prepared ${name}: values used other than as parameters (${missing.join(', ') || 'objects'})`);
  }
  const values = (v: T) => {
    const out = new Array<unknown>(keys.length);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      out[i] = key === undefined ? params[i] : v[key];
    }
    return out;
  };
  return {
    text,
    values,
    async run<R extends QueryResultRow = QueryResultRow>(dbh: DbHandle, v: T): Promise<QueryResult<R>> {
      const params = values(v);
      try {
        return await dbh.pool.query<R>(
          dbh.kind === 'postgres' ? { name, text, values: params } : { text, values: params },
        );
      } catch (err) {
        // as drizzle reports a failed statement: the error handler reads the database's code from it (a statement
        // timeout is a 503, a deadlock a 409) and logs the query without its values
        throw new DrizzleQueryError(text, params, err as Error);
      }
    },
  };
}
