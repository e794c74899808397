// Pure, so shell/options.ts and app/'s --fail-on checks share them.

export function splitList(value: string): string[] {
  return [
    ...new Set(
      value
        .split(',')
        .map((w) => w.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
}

/** Only when near enough to be a typo (`tabel`, `htm`). */
export function suggest(word: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = (word.length <= 3 ? 1 : Math.max(2, Math.floor(word.length / 3))) + 1;
  for (const k of known) {
    const d = levenshtein(word.toLowerCase(), k.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return best;
}

/** Inputs are flag words, bounded by the command line. */
export function levenshtein(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length]!;
}
