/*
 * The speed-ups that remember or announce something ahead of the request that needs it, and so could serve something
 * stale if they were wrong. Each is one idea, in one place, with one switch: SPEEDUPS_OFF lists the ones to turn off
 * (comma-separated names below; `all` turns off every one). With a speed-up off the product answers the same, only
 * slower: each has a test that runs its case both ways. docs/performance.md has a section per speed-up, titled as
 * the value here.
 */
export const SPEEDUPS = {
  /** modules/merchant-api/signature.ts: a create is checked against the merchant's key and terminal as last read */
  'remembered-creates': 'Remembered merchant key and terminal (merchant API creates)',
  /** lib/scope.ts: a merchant a platform user named once is known to exist */
  'remembered-merchants': 'Remembered merchants for platform staff (merchant scope)',
  /** app.ts sendLandingPage: index.html names the landing screen's files */
  'landing-preloads': 'Landing files named in index.html',
  /** app.ts sendLandingPage: index.html names the first API calls (the session, the merchant list) */
  'first-calls': 'First calls named in index.html',
  /** lib/named-statements.ts: each PostgreSQL connection keeps the statements it parsed and planned */
  'named-statements': 'Named statements on PostgreSQL',
} as const;

export type Speedup = keyof typeof SPEEDUPS;

/** SPEEDUPS_OFF's value as the set of speed-ups switched off; an unknown name is a configuration error. */
export function parseSpeedupsOff(value: string | undefined): Set<Speedup> {
  const names = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.includes('all')) return new Set(Object.keys(SPEEDUPS) as Speedup[]);
  const unknown = names.filter((n) => !Object.hasOwn(SPEEDUPS, n));
  if (unknown.length) {
    throw new Error(
      `Invalid configuration: SPEEDUPS_OFF names ${unknown.join(', ')}; known: all, ${Object.keys(SPEEDUPS).join(', ')}`,
    );
  }
  return new Set(names as Speedup[]);
}

/** Whether a speed-up is on (that is, not listed in SPEEDUPS_OFF). */
export const speedupOn = (config: { speedupsOff: ReadonlySet<Speedup> }, name: Speedup) =>
  !config.speedupsOff.has(name);
