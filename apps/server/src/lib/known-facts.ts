import type { DbHandle } from '../db/create-db';

/**
 * Facts seen to hold in a database that nothing undoes (a merchant exists: merchants are never deleted; a pool is a
 * merchant's: pools never change merchant), remembered per database in this process so that the next request that
 * needs one reads nothing. Only ever a fact that held: a refusal is read again every time. Bounded: emptied past
 * `limit` facts.
 */
export function knownFacts(limit = 10_000) {
  const known = new WeakMap<DbHandle, Set<string>>();
  return {
    has: (dbh: DbHandle, fact: string) => known.get(dbh)?.has(fact) ?? false,
    add(dbh: DbHandle, fact: string) {
      let facts = known.get(dbh);
      if (!facts || facts.size >= limit) known.set(dbh, (facts = new Set()));
      facts.add(fact);
    },
  };
}
