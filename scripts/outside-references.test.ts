import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The repository explains itself: nothing in it may point at a document outside it (a specification or design
 * section, a style guide, a folder beside the checkout, an issue of a tracker). A comment says what it means, or
 * points at a section of a file in docs/ (e.g. `docs/architecture.md, "Who is who"`).
 *
 * Checked: every file git lists (tracked, and new files not ignored), apart from package-lock.json, anything under
 * node_modules and binary files. The names looked for are spelled in pieces, so that this file passes its own check.
 */
const [requirements, architecture, houseStyle, besideCheckout] = [
  'SP' + 'EC',
  'DES' + 'IGN',
  'STY' + 'LE',
  '\\.\\./sha' + 'red',
];
const OUTSIDE_REFERENCE = new RegExp(
  [
    `${requirements} §`,
    `${architecture} §`,
    `${requirements} section`,
    `${architecture} section`,
    `(${houseStyle}|${requirements}|${architecture})\\.md`,
    besideCheckout,
  ]
    .concat('\\biss' + 'ue #?\\d')
    .join('|'),
  'i',
);

const root = path.join(import.meta.dirname, '..');

function listedFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    maxBuffer: 256 * 1024 * 1024,
  });
  return [...new Set(out.toString('utf8').split('\0').filter(Boolean))];
}

const skipped = (file: string) =>
  path.posix.basename(file) === 'package-lock.json' || file.split('/').includes('node_modules');

/** `file:line: text` for every line of a listed text file that refers to a document outside the repository. */
function outsideReferences(): string[] {
  const found: string[] = [];
  for (const file of listedFiles()) {
    if (skipped(file)) continue;
    const full = path.join(root, file);
    let bytes: Buffer;
    try {
      if (!fs.lstatSync(full).isFile()) continue; // a symbolic link, or a file deleted in the working tree
      bytes = fs.readFileSync(full);
    } catch {
      continue;
    }
    if (bytes.subarray(0, 8000).includes(0)) continue; // binary
    const lines = bytes.toString('utf8').split('\n');
    lines.forEach((line, i) => {
      if (OUTSIDE_REFERENCE.test(line)) found.push(`${file}:${i + 1}: ${line.trim().slice(0, 160)}`);
    });
  }
  return found;
}

describe('references to documents outside the repository', () => {
  it('the pattern finds such a reference and leaves a docs/ reference alone', () => {
    for (const line of [
      `see ${architecture} §3`,
      `// ${requirements} §2: three lines`,
      `as ${houseStyle}.md says`,
      `the rules in ${requirements}.md`,
      `copied from ../sha${'red'}/notes`,
      `measured for Iss${'ue'} 15`,
    ]) {
      expect(line).toMatch(OUTSIDE_REFERENCE);
    }
    for (const line of [
      'docs/architecture.md, "Who is who"',
      'see docs/performance.md, "Keyset pagination"',
      'e2e/invoices.spec.ts',
      'no issues found; tissue 3',
    ]) {
      expect(line).not.toMatch(OUTSIDE_REFERENCE);
    }
  });

  it('no file refers to one (file:line listed)', () => {
    const found = outsideReferences();
    expect(found, `point at a section of a file in docs/ instead:\n${found.join('\n')}`).toEqual([]);
  });
});
