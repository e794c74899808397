/** What changed in a tool's definition (docs/DEFINITION-HASH.md), for `diff` and `--baseline`. */
import { DEFINITION_FIELDS } from '../model/definition-hash.js';
import { bounded, boundedTail } from '../model/bounds.js';

export interface Hashed {
  definitionHash?: string;
  fieldHashes?: Record<string, string>;
}

/** A side without a hash cannot be shown the same: `[]`, unless both lack one and `bothAbsentIsSame`. */
export function changedFields(o: Hashed, n: Hashed, bothAbsentIsSame: boolean): string[] | undefined {
  if (o.definitionHash === undefined && n.definitionHash === undefined) return bothAbsentIsSame ? undefined : [];
  if (o.definitionHash === n.definitionHash) return undefined;
  if (!o.fieldHashes || !n.fieldHashes) return [];
  return DEFINITION_FIELDS.filter((f) => o.fieldHashes![f] !== n.fieldHashes![f]);
}

/** Lines of a description diff shown at most, and characters per line. */
export const DIFF_LINES = 8;
const DIFF_LINE_CHARS = 160;

/** Linear (no LCS): only the lines between the first and last difference, at most DIFF_LINES in all. */
export function descriptionDiff(from: string | undefined, to: string | undefined): string[] | undefined {
  if (from === to) return undefined;
  const a = (from ?? '').split('\n');
  const b = (to ?? '').split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  let removed = a.slice(start, endA);
  let added = b.slice(start, endB);
  if (removed.length === 1 && added.length === 1) [removed, added] = around(removed[0]!, added[0]!);
  const half = DIFF_LINES / 2;
  const side = (sign: string, lines: string[], room: number) => [
    ...lines.slice(0, room).map((l) => `${sign} ${bounded(l, DIFF_LINE_CHARS)}`),
    ...(lines.length > room ? [`${sign} ... ${lines.length - room} more line(s)`] : []),
  ];
  const roomA = Math.max(half, DIFF_LINES - added.length);
  const roomB = Math.max(half, DIFF_LINES - removed.length);
  const where = start > 0 ? [`@@ line ${start + 1}`] : [];
  return [
    ...where,
    ...(from === undefined ? ['- (no description)'] : side('-', removed, roomA)),
    ...(to === undefined ? ['+ (no description)'] : side('+', added, roomB)),
  ];
}

/** Two versions of one line, from a little before their first difference (the cut marked). */
function around(x: string, y: string): [string[], string[]] {
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  const skip = Math.max(0, i - 40);
  return [[boundedTail(x, x.length - skip)], [boundedTail(y, y.length - skip)]];
}
