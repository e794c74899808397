// `--profile NAME|FILE`: a bad file is an InputError before anything is scanned.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Severity, Verdict } from '../../model/schema.js';
import { describeZodError } from '../../model/zod-errors.js';
import { readBounded, type ReadFailure } from '../../io/read.js';
import { MAX_JSON_DEPTH, parseJson } from '../../model/bounded-input.js';
import { CATALOGUE } from '../../model/catalogue.js';
import { InputError } from '../../model/input-error.js';
import { Profile } from './schema.js';

export const BUILTIN_IDS = ['openai-apps', 'anthropic-directory'] as const;

/** Words `--fail-on` already gives a meaning to: a profile cannot take them as its id. */
const RESERVED_IDS = new Set<string>([
  'profile',
  'drift',
  ...Severity.options,
  ...Verdict.options,
  ...CATALOGUE.map((r) => r.id),
]);

const MAX_FILE_BYTES = 256 * 1024;

/** Recorded in `report.options.profiles`. */
export interface LoadedProfile {
  profile: Profile;
  /** For a file, as given. */
  path?: string;
  sha256?: string;
}

let builtins: Map<string, Profile> | undefined;

/** A broken shipped profile is a bug of idemscan, so it throws. */
export function builtinProfiles(): Map<string, Profile> {
  builtins ??= new Map(
    BUILTIN_IDS.map((id) => {
      // Files of the installed package, not of the user.
      const text = readFileSync(new URL(`../../../profiles/${id}.json`, import.meta.url), 'utf8');
      return [id, Profile.parse(JSON.parse(text))];
    }),
  );
  return builtins;
}

const fail = (value: string, detail: string) => new InputError(detail, { field: '--profile', file: value });

/** Each a builtin id, a path, or a comma-separated list; duplicates count once. */
export async function loadProfiles(values: string[]): Promise<LoadedProfile[]> {
  const out = new Map<string, LoadedProfile>();
  for (const value of values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean)) {
    const builtin = builtinProfiles().get(value);
    const loaded = builtin ? { profile: builtin } : await loadFile(value);
    const seen = out.get(loaded.profile.id);
    if (seen && (seen.path !== loaded.path || seen.sha256 !== loaded.sha256)) {
      throw fail(value, `another profile given has the id "${loaded.profile.id}"`);
    }
    out.set(loaded.profile.id, loaded);
  }
  return [...out.values()];
}

async function loadFile(file: string): Promise<LoadedProfile> {
  if (!looksLikePath(file)) {
    throw fail(
      file,
      `not a builtin profile (${BUILTIN_IDS.join(', ')}) nor a path to a JSON file (say ./${file}.json)`,
    );
  }
  const read = await readBounded(file, { maxBytes: MAX_FILE_BYTES });
  if ('error' in read) throw fail(file, readWords(read));
  const bytes = read.bytes;
  const json = parseJson(bytes.toString('utf8'), { maxBytes: MAX_FILE_BYTES, maxDepth: MAX_JSON_DEPTH });
  if ('error' in json) throw fail(file, json.why === 'syntax' ? `not JSON (${json.error})` : json.error);
  const parsed = Profile.safeParse(json.value);
  if (!parsed.success) throw fail(file, describeZodError('', parsed.error));
  const id = parsed.data.id;
  if (RESERVED_IDS.has(id) || builtinProfiles().has(id)) {
    throw fail(
      file,
      `id: "${id}" is taken (${builtinProfiles().has(id) ? 'a builtin profile' : 'a word --fail-on already knows'}); choose another`,
    );
  }
  return { profile: parsed.data, path: file, sha256: createHash('sha256').update(bytes).digest('hex') };
}

function readWords(read: ReadFailure): string {
  if (read.kind === 'too-large') return `more than ${MAX_FILE_BYTES} bytes; a profile has at most ${MAX_FILE_BYTES}`;
  if (read.kind === 'not-a-file') return 'not a file';
  return `cannot read it: ${read.error.replace(/^cannot read: /, '')}`;
}

function looksLikePath(value: string): boolean {
  return value.includes('/') || value.includes('\\') || value.toLowerCase().endsWith('.json');
}
