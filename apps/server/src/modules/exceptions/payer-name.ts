/**
 * Does the payer's name a bank reported fit a customer's? Banks shorten and reorder names ("PETROV IVAN",
 * "IVAN P.", "Ivan Petrov"), so each part of the customer's name must appear among the payer's words, in any order,
 * either whole or as an initial; at least one part must appear whole. Case, punctuation and Cyrillic ё/е are ignored.
 * 'same': every part appears whole; 'fits': some only as initials; null: the names disagree or one is missing.
 */
export function payerFits(payer: string | null, first: string, last: string): 'same' | 'fits' | null {
  if (!payer) return null;
  const words = (s: string) =>
    s
      .toLowerCase()
      .replace(/ё/g, 'е')
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean);
  const payerWords = words(payer);
  const parts = [...words(first), ...words(last)];
  if (parts.length === 0 || payerWords.length === 0) return null;
  const unused = [...payerWords];
  let whole = 0;
  for (const part of parts) {
    const exact = unused.indexOf(part);
    if (exact >= 0) {
      unused.splice(exact, 1);
      whole++;
      continue;
    }
    const initial = unused.findIndex((w) => w.length === 1 && part.startsWith(w));
    if (initial < 0) return null;
    unused.splice(initial, 1);
  }
  if (whole === 0) return null;
  return whole === parts.length ? 'same' : 'fits';
}
