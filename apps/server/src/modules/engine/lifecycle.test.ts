import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { INVOICE_STATUS_CODES } from '@paydesk/contracts';

/**
 * One lifecycle module: the statuses' rules live in contracts/statuses.ts and the engine applies them
 * (engine/lifecycle.ts builds the SQL from them). No other server file writes a list of invoice
 * statuses — in TypeScript (`['IN_PROGRESS', 'PAYED']`, `a === 'X' || a === 'Y'`) or in SQL (`IN ('X', 'Y')`).
 */
const SRC = path.join(import.meta.dirname, '..', '..');
const status = `'(?:${INVOICE_STATUS_CODES.join('|')})'`;
const LIST_PATTERNS = [
  new RegExp(`${status}\\s*,\\s*${status}`), // ['A', 'B'] or IN ('A', 'B')
  new RegExp(`status\\s*[!=]==?\\s*${status}\\s*(?:\\|\\||&&)[^;\\n]*status\\s*[!=]==?\\s*${status}`), // a === 'A' || a === 'B'
];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'seed' || e.name === 'migrations' ? [] : sourceFiles(p);
    return /\.ts$/.test(e.name) && !/\.(test|testkit|fixtures)\.ts$/.test(e.name) ? [p] : [];
  });
}

describe('one lifecycle module', () => {
  it('no server file but the engine lifecycle writes a list of invoice statuses', () => {
    const offenders = sourceFiles(SRC).flatMap((file) =>
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ line, at: `${path.relative(SRC, file)}:${i + 1}` }))
        .filter(({ line }) => LIST_PATTERNS.some((re) => re.test(line)))
        .map(({ at, line }) => `${at}: ${line.trim()}`),
    );
    expect(offenders).toEqual([]);
  });
});
