/** A bad behaviour.json (untrusted, validated) costs its section only, never the index. */
import path from 'node:path';
import { readBoundedText } from '../../io/read.js';
import { BehaviourTable } from '../behaviour/behaviour.js';
import { parseJson } from '../../model/bounded-input.js';
import { describeZodError } from '../../model/zod-errors.js';
import { SAVED_BOUNDS } from '../../compare/read.js';
import { BEHAVIOUR_DIR } from './index-format.js';
import { behaviourSection } from '../behaviour/behaviour-render.js';

/** Where the index looks for the table, and the page its section links, relative to ROOT. */
const BEHAVIOUR_FILE = `${BEHAVIOUR_DIR}/behaviour.json`;
const BEHAVIOUR_PAGE = `${BEHAVIOUR_DIR}/behaviour.html`;

/** A table of a few hundred rows is tens of kB; a census of the whole library stays far below this. */
const BEHAVIOUR_MAX_BYTES = 16 * 1024 * 1024;

/** The table, or why the file cannot be used (with its path); undefined when there is none. */
export type BehaviourRead = { table: BehaviourTable } | { file: string; error: string } | undefined;

/** `bad`: told the file and why when it cannot be used (the caller's warning or note). */
export async function readBehaviour(root: string, bad?: (file: string, why: string) => void): Promise<BehaviourRead> {
  const read = await readBehaviourFile(path.join(root, ...BEHAVIOUR_FILE.split('/')));
  if (read && 'error' in read) bad?.(read.file, read.error);
  return read;
}

/** One behaviour.json, bounded and validated; undefined when there is none. */
export async function readBehaviourFile(file: string): Promise<BehaviourRead> {
  const got = await readBoundedText(file, { maxBytes: BEHAVIOUR_MAX_BYTES });
  if ('error' in got) return got.code === 'ENOENT' ? undefined : { file, error: got.error };
  const parsed = parseJson(got.text, { maxBytes: BEHAVIOUR_MAX_BYTES, maxDepth: SAVED_BOUNDS.maxDepth });
  if ('error' in parsed)
    return { file, error: parsed.why === 'syntax' ? `not valid JSON: ${parsed.error}` : parsed.error };
  const table = BehaviourTable.safeParse(parsed.value);
  if (!table.success) return { file, error: `invalid behaviour table: ${describeZodError('', table.error)}` };
  return { table: table.data };
}

/** The index page's section for a table read, '' for none or a bad file. */
export function behaviourHtmlOf(read: BehaviourRead): string {
  return read && 'table' in read ? behaviourSection(read.table, BEHAVIOUR_PAGE) : '';
}
