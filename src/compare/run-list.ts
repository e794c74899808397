/** The list a run covers (`listOf`): the trend section's `differentList` and the run index's. */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { clip } from '../model/cut.js';
import type { Report } from '../model/schema.js';
import { compareText } from './diff.js';

/** Target files a list entry may name at most, and characters of each name: the index is read back untrusted. */
const MAX_LIST_FILES = 50;
const MAX_LIST_FILE_CHARS = 300;

/** Its hash tells runs over different lists apart; re-pinning to newer versions keeps it. */
export const RunList = z.object({
  files: z.array(z.string().max(MAX_LIST_FILE_CHARS)).max(MAX_LIST_FILES),
  entries: z.number().int().nonnegative(),
  hash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
});
export type RunList = z.infer<typeof RunList>;

/** The list a report's run covered (RunList). */
export function listOf(report: Pick<Report, 'servers' | 'skipped'>): RunList {
  const entries = new Set<string>();
  const files = new Set<string>();
  const add = (name: string, source: string | undefined) => {
    const at = source?.lastIndexOf('#') ?? -1;
    const file = listFile(source === undefined ? '' : at > 0 ? source.slice(0, at) : source);
    if (file !== '') files.add(clip(file, MAX_LIST_FILE_CHARS));
    entries.add(JSON.stringify([file, name]));
  };
  for (const s of report.servers) add(s.name, s.target.source);
  for (const k of report.skipped ?? []) add(k.name, k.source);
  const hash = createHash('sha256');
  for (const e of [...entries].sort(compareText)) hash.update(e + '\n', 'utf8');
  return {
    files: [...files].sort(compareText).slice(0, MAX_LIST_FILES),
    entries: entries.size,
    hash: `sha256:${hash.digest('hex')}`,
  };
}

/** How a path was typed does not make another list. */
function listFile(file: string): string {
  if (file === '') return file;
  let f = path.posix.normalize(file.replaceAll('\\', '/'));
  while (f.startsWith('./')) f = f.slice(2);
  return f;
}
