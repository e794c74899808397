/** A skip reason starts with one of these and a colon, so statistics count skips without reading the prose. */
const SKIP_GROUPS = [
  'needs network at start',
  'needs a real credential',
  'crashes on Node 20',
  'not a server',
  'cannot be installed',
  'needs local state',
  'timeout',
  'broken',
] as const;

export function skipGroup(reason: string): string {
  const lead = reason
    .slice(0, Math.max(0, reason.indexOf(':')))
    .trim()
    .toLowerCase();
  return SKIP_GROUPS.find((g) => g.toLowerCase() === lead) ?? 'other';
}
