import fs from 'node:fs';
import path from 'node:path';

/** The files under `dir` (relative to it) that hold any of `needles`, as bytes: a scan for values at rest. */
export function filesHolding(dir: string, needles: string[]): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) {
        const bytes = fs.readFileSync(p);
        if (needles.some((n) => bytes.includes(n))) found.push(path.relative(dir, p));
      }
    }
  };
  walk(dir);
  return found;
}
