import { getTableColumns, is, sql, SQL, type InferInsertModel, type InferSelectModel } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/**
 * A table's whole row in statements written as SQL, for the hottest paths (every change of an invoice locks, updates
 * and returns its row). Drizzle's query builder works out a statement's text again each time one is awaited: about
 * 90 µs for the invoice's `select … for update`, 135 µs for its `update … returning`, against a few µs for the same
 * statement as a `sql` template with the column list made here once per table. The rows come back through each
 * column's own driver mapping, as the builder maps them, so a column added to the schema is in the list and the
 * mapping without a change here (docs/performance.md, "Whole rows as SQL").
 */
export type RowSql<T extends PgTable> = {
  /** `"id", "merchant_id", …`: the table's columns in schema order, to select or return. */
  columns: SQL;
  /** A row as the driver returned it (column names) as the schema's object (property names, mapped values). */
  from(raw: Record<string, unknown>): InferSelectModel<T>;
  /**
   * `"status" = $1, "amount" = $2`: the set list of an update; `undefined` values are left out, as the builder does.
   */
  set(values: { [K in keyof InferInsertModel<T>]?: InferInsertModel<T>[K] | SQL }): SQL;
};

export function rowSql<T extends PgTable>(table: T): RowSql<T> {
  const columns = Object.entries(getTableColumns(table));
  const byKey = new Map(columns);
  const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
  return {
    columns: sql.raw(columns.map(([, c]) => quoted(c.name)).join(', ')),
    from(raw) {
      const row: Record<string, unknown> = {};
      for (const [key, column] of columns) {
        const value = raw[column.name];
        if (value === undefined) throw new Error(`a row without column ${quoted(column.name)}`);
        row[key] = value === null ? null : column.mapFromDriverValue(value);
      }
      return row as InferSelectModel<T>;
    },
    set(values) {
      const parts: SQL[] = [];
      for (const [key, value] of Object.entries(values)) {
        if (value === undefined) continue;
        const column = byKey.get(key);
        if (!column) throw new Error(`no column ${key}`);
        // an SQL value (`sql\`now()\``) goes in as it is; any other through the column's driver mapping
        parts.push(sql`${sql.raw(quoted(column.name))} = ${is(value, SQL) ? value : sql.param(value, column)}`);
      }
      if (!parts.length) throw new Error('an update needs a value to set');
      return sql.join(parts, sql`, `);
    },
  };
}
