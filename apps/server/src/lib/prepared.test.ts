import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { prepared, type Params } from './prepared';
import { secureRandom } from './random';

type Row = { id: string; amount: number; note: string | null };
const build = (v: Params<Row>) =>
  sql`INSERT INTO t (id, amount, note, kind) VALUES (${v.id}, ${v.amount}, ${v.note}, ${'fixed'}) RETURNING ${v.id}`;

describe('prepared: a statement rendered once', () => {
  it('has the text drizzle renders, and puts each call’s values (and the constants) where drizzle would', () => {
    const p = prepared<Row>('t_insert', build);
    const row: Row = { id: 'a1', amount: 5, note: null };
    const direct = new PgDialect().sqlToQuery(build(row));
    expect(p.text).toBe(direct.sql);
    expect(p.values(row)).toEqual(direct.params);
    expect(p.values({ id: 'b2', amount: 7, note: 'x' })).toEqual(['b2', 7, 'x', 'fixed', 'b2']);
  });

  it('refuses a builder that computes with a value instead of passing it as a parameter', () => {
    expect(() => prepared<Row>('t_bad', (v) => sql`SELECT ${`${String(v.id)}-x`}`)).toThrow(
      /values used other than as parameters/,
    );
  });
});

describe('secureRandom', () => {
  it('hands out distinct bytes of the asked length, across refills of its pool', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const b = secureRandom(29);
      expect(b.length).toBe(29);
      seen.add(b.toString('hex'));
    }
    expect(seen.size).toBe(1000);
    expect(secureRandom(5000).length).toBe(5000);
  });
});
