/** The plan library: all files checked before anything runs; untrusted, so only library-placeholders.ts expands. */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { readBoundedText } from '../../io/read.js';
import { PLAN_LIBRARY_MARK } from '../../launch/npm.js';
import { MAX_JSON_DEPTH, parseJson } from '../../model/bounded-input.js';
import { InputError } from '../../model/input-error.js';
import { MAX_PLAN_BYTES, parsePlan, type ProbePlan } from '../../model/probe-plan.js';
import { describeZodError } from '../../model/zod-errors.js';
import { msg, show } from '../../render/message.js';
import { ownEntryTarget, parseOwnEntry, type OwnEntryValue } from '../../targets/formats/own.js';
import type { Target } from '../../targets/types.js';
import { checkExpect, type LibraryExpect } from './library-expect.js';
import { checkPlaceholders, substitute } from './library-placeholders.js';
import { isObject } from '../../model/is-object.js';

const anObject = z.custom<Record<string, unknown>>(isObject, 'expected an object');

/** A library file's own fields; `server`, `plan` and `expect` are checked by their own parsers after it. */
const LibraryFile = z.strictObject({
  description: z.string().min(1, 'say what the server is and how its backend is seeded'),
  server: anObject,
  expect: anObject.optional(),
  plan: anObject,
});

export interface LibraryEntry {
  file: string;
  /** `server.name`, which is the file's name without .json. */
  name: string;
  description: string;
  /** The package as pinned (`@scope/pkg@1.2.3`), else the command as written. */
  package: string;
  /** As written: placeholders in place, checked. */
  server: Record<string, unknown>;
  plan: Record<string, unknown>;
  expect?: LibraryExpect;
}

/** `DIR/*.json` sorted by name, or the `only` ones, each read and checked. */
export async function readLibrary(dir: string, only?: readonly string[]): Promise<LibraryEntry[]> {
  const names = await libraryNames(dir);
  for (const n of only ?? [])
    if (!names.includes(n)) throw new InputError(msg`--only: no file ${show.name(n)}.json in ${show.path(dir)}`);
  const chosen = only ? names.filter((n) => only.includes(n)) : names;
  const entries: LibraryEntry[] = [];
  for (const n of chosen) entries.push(await readEntry(path.join(dir, `${n}.json`)));
  return entries;
}

async function libraryNames(dir: string): Promise<string[]> {
  const listed = await readdir(dir, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
    throw new InputError(`cannot read the plan library (${err.code ?? 'error'})`, { file: dir });
  });
  const names = listed
    .filter((d) => d.isFile() && d.name.endsWith('.json'))
    .map((d) => d.name.slice(0, -'.json'.length))
    .sort();
  if (names.length === 0) throw new InputError('no plan-library files (NAME.json) in it', { file: dir });
  return names;
}

/** One file, checked whole: its fields, its placeholders, its server, its plan, its `expect` against the plan. */
async function readEntry(file: string): Promise<LibraryEntry> {
  const read = await readBoundedText(file, { maxBytes: MAX_PLAN_BYTES });
  if ('error' in read)
    throw new InputError(read.kind === 'unreadable' ? `cannot read it (${read.code ?? 'error'})` : read.error, {
      file,
    });
  const parsed = parseJson(read.text, { maxBytes: MAX_PLAN_BYTES, maxDepth: MAX_JSON_DEPTH });
  if ('error' in parsed)
    throw new InputError(parsed.why === 'syntax' ? `not JSON (${parsed.error})` : parsed.error, { file });
  return entryOf(parsed.value, file);
}

/** A parsed library file checked (also for tests and callers that hold the JSON already). */
export function entryOf(doc: unknown, file: string): LibraryEntry {
  const top = LibraryFile.safeParse(doc);
  if (!top.success) throw new InputError(describeZodError('', top.error), { file });
  const raw = doc as z.infer<typeof LibraryFile>;
  checkPlaceholders(raw.server, raw.plan, file);
  const server = checkServer(raw.server, file);
  const plan = parsePlan(raw.plan, file, 'plan');
  const expect = raw.expect === undefined ? undefined : checkExpect(raw.expect, plan, file);
  return {
    file,
    name: server.name,
    description: raw.description,
    package: packageOf(server),
    server: raw.server,
    plan: raw.plan,
    ...(expect ? { expect } : {}),
  };
}

/** The own-list entry schema, the file's name, and a stdio server (the library runs only sandboxed). */
function checkServer(raw: Record<string, unknown>, file: string): OwnEntryValue {
  const parsed = parseOwnEntry(raw, 'server', { file, env: {} });
  if ('skipped' in parsed) throw new InputError(parsed.skipped.reason, { file });
  const { entry } = parsed;
  const base = path.basename(file, '.json');
  if (entry.name !== base)
    throw new InputError(
      msg`server.name: ${show.name(entry.name)}, but the file is ${show.name(base)}.json (NAME.json names its server)`,
      { file },
    );
  if (entry.url !== undefined || (entry.transport ?? 'stdio') !== 'stdio')
    throw new InputError(
      'server.url: a library server runs under --sandbox, which contains stdio servers only: give "npm" or "command"',
      { file },
    );
  const other = (['pypi', 'oci', 'mcpb'] as const).find((k) => entry[k] !== undefined);
  if (other !== undefined)
    throw new InputError(
      `server.${other}: a library server is an "npm" package or a "command": the table says each ran in bubblewrap with only its scratch directory writable, which the library holds to for these two`,
      { file },
    );
  if (entry.skip !== undefined)
    throw new InputError('server.skip: a library file is run whole; remove the file instead', { file });
  return entry;
}

const packageOf = (e: OwnEntryValue): string =>
  e.npm ?? e.pypi ?? e.oci ?? e.mcpb ?? [e.command ?? '', ...(e.args ?? [])].join(' ');

/** What one run of an entry launches and calls, `${scratch}` and `${library}` replaced (library.md). */
export function materialize(
  entry: LibraryEntry,
  places: { scratch: string; library: string },
): { target: Target; plan: ProbePlan } {
  const server = { ...entry.server };
  for (const key of ['args', 'env', 'cwd'] as const) if (key in server) server[key] = substitute(server[key], places);
  const parsed = parseOwnEntry(server, 'server', { file: entry.file, env: {} });
  if ('skipped' in parsed) throw new InputError(parsed.skipped.reason, { file: entry.file });
  // Nothing is left to expand (checkPlaceholders): an empty environment, so nothing could be read from it.
  const made = ownEntryTarget(parsed.entry, 'server', { file: entry.file, env: {}, untrusted: entry.file });
  if ('skipped' in made) throw new InputError(made.skipped.reason, { file: entry.file });
  const target = { ...made.target, source: `${made.target.source}${PLAN_LIBRARY_MARK}` };
  return { target, plan: parsePlan(substitute(entry.plan, places), entry.file, 'plan') };
}
