// Path-like strings point into the scratch directory; the ones a tool reads are made before the call.
import { pathToFileURL } from 'node:url';
import { nameWords } from '../../classify/keys.js';
import { DESCRIPTION_LIMIT } from '../../model/bounds.js';
import { cutHead } from '../../model/cut.js';
import { fail, lengths, made, text, type At, type Ctx, type Made, type Schema } from './arguments-common.js';
import { compile } from './arguments-pattern.js';

type PathKind = 'file' | 'dir';

const INPUT_CONTENT = 'idemscan probe input\n';
const DIR_WORDS = new Set([
  'dir',
  'dirs',
  'directory',
  'directories',
  'folder',
  'folders',
  'dirname',
  'cwd',
  'workdir',
]);
const FILE_WORDS = new Set(['path', 'paths', 'pathname', 'file', 'files', 'filename', 'filenames', 'filepath']);
/** Path-like only as the whole name, and only if a description, when there is one, speaks of files. */
const SOLE_NAMES = new Set(['src', 'dest', 'destination', 'source', 'output']);
/** `url_path`, `json_path`: a path, but not in a file system. */
const NOT_FILE_FIRST = new Set(['url', 'uri', 'api', 'json', 'route', 'endpoint', 'http', 'web', 'xml', 'key']);
const URI_FORMATS = new Set(['uri', 'url', 'uri-reference', 'iri', 'iri-reference']);
/** A working directory is read too: a command runs in it. */
const INPUT_WORDS = new Set([
  'source',
  'src',
  'from',
  'old',
  'input',
  'existing',
  'original',
  'orig',
  'cwd',
  'workdir',
  'working',
]);
const OUTPUT_WORDS = new Set(['destination', 'dest', 'to', 'new', 'output', 'out', 'target']);

const DESCRIBES_PATH =
  /\b(?:file|directory|folder) ?(?:path|name)s?\b|\b(?:absolute|relative|full|local|filesystem) path|\bpath (?:to|of) (?:the |an? )?(?:file|directory|folder|dir)\b/i;
const SPEAKS_OF_FILES = /\b(?:path|file|directory|folder)/i;
const DESCRIBES_DIR = /\b(?:directory|folder)\b/i;
const MENTIONS_FILE = /\bfile\b/i;
const DESCRIBES_OUTPUT = /\b(?:destination|output|new|target)\b|\b(?:write|save) (?:to|into|as)\b|\bwhere to\b/i;
const DESCRIBES_INPUT =
  /\b(?:existing|source)\b|\bread from\b|\bto (?:read|edit|modify|update|append|move|copy|rename|open|view|load|parse|patch|delete|remove)\b/i;

const describe = (schema: Schema): string => cutHead(text(schema.description), DESCRIPTION_LIMIT);

function byName(name: string, description: string): PathKind | undefined {
  const words = nameWords(name);
  const last = words.at(-1);
  if (!last || NOT_FILE_FIRST.has(words[0]!)) return undefined;
  const joined = words.join('');
  if (DIR_WORDS.has(last) || DIR_WORDS.has(joined)) return 'dir';
  if (FILE_WORDS.has(last) || FILE_WORDS.has(joined)) return words.some((w) => DIR_WORDS.has(w)) ? 'dir' : 'file';
  if (SOLE_NAMES.has(joined) && (!description || SPEAKS_OF_FILES.test(description))) return 'file';
  return undefined;
}

/** Whether a string property holds a path, and of what. */
export function pathKind(name: string, schema: Schema): PathKind | undefined {
  const format = schema.format;
  if (format !== undefined && !(typeof format === 'string' && URI_FORMATS.has(format))) return undefined;
  const description = describe(schema);
  const kind =
    byName(name, description) ??
    (DESCRIBES_PATH.test(description) ? (DESCRIBES_DIR.test(description) ? 'dir' : 'file') : undefined);
  if (format === undefined || kind) return kind;
  return MENTIONS_FILE.test(description) ? 'file' : undefined;
}

/** Read as an input by its name first, then by its description; an output is never made beforehand. */
function isInput(name: string, schema: Schema): boolean {
  const words = nameWords(name);
  if (words.some((w) => INPUT_WORDS.has(w))) return true;
  if (words.some((w) => OUTPUT_WORDS.has(w))) return false;
  const description = describe(schema);
  return !DESCRIBES_OUTPUT.test(description) && DESCRIBES_INPUT.test(description);
}

export function makePath(kind: PathKind, schema: Schema, at: At, ctx: Ctx): Made {
  const relative = kind === 'dir' ? `probe-dir-${++ctx.dirs}` : `probe-file-${++ctx.files}.txt`;
  const absolute = `${ctx.scratch}/${relative}`;
  const value = schema.format === undefined ? absolute : pathToFileURL(absolute).href;
  const bounds = lengths(schema, at);
  if ('ok' in bounds) return bounds;
  if (value.length < bounds.min || value.length > bounds.max)
    return fail(at, `a scratch path of ${value.length} characters is outside ${bounds.min}..${bounds.max}`);
  if (typeof schema.pattern === 'string') {
    const re = compile(schema.pattern);
    if (typeof re === 'string') return fail(at, re);
    if (!re.test(value)) return fail(at, 'pattern refuses a path in the scratch directory');
  }
  if (isInput(at.name, schema))
    ctx.inputs.push({ path: kind === 'dir' ? `${relative}/` : relative, content: kind === 'dir' ? '' : INPUT_CONTENT });
  return made(value);
}
