/** The option parsers every command shares; each bad value is an InputError naming its option. */
import { Option, type Command } from '@commander-js/extra-typings';
import { InputError } from '../model/input-error.js';
import { msg, show } from '../render/message.js';
import { splitList, suggest } from '../model/words.js';
import { DEFAULTS } from '../model/limits.js';

/**
 * `option: unknown "word"` with the nearest known word, if one is near enough to be a typo,
 * then the known words (cut when there are many, as rule ids are).
 */
function unknownWord(option: string, word: string, known: readonly string[], what = 'expected one of'): InputError {
  const near = suggest(word, known);
  const list = known.length > 12 ? `${known.slice(0, 12).join(', ')}, ...` : known.join(', ');
  const hint = near ? msg`; did you mean "${near}"?` : msg``;
  return new InputError(msg`${option}: unknown "${show.name(word)}"${hint} (${what}: ${list})`);
}

/** A parser for a comma list of `choices` (case-insensitive); `refuse` may explain why a word is not one. */
export function listParser(
  option: string,
  choices: readonly string[],
  refuse?: (word: string) => string | undefined,
): (value: string) => string[] {
  return (value) => {
    const words = splitList(value);
    if (words.length === 0) throw new InputError(`${option}: expected a comma-separated list of ${choices.join(', ')}`);
    for (const w of words) {
      const why = refuse?.(w);
      if (why) throw new InputError(msg`${option} ${show.name(w)}: ${why}`);
      if (!choices.includes(w)) throw unknownWord(option, w, choices);
    }
    return words;
  };
}

/** A parser for one word of `choices` (case-insensitive). */
export function wordParser<T extends string>(option: string, choices: readonly T[]): (value: string) => T {
  return (value) => {
    const word = value.trim().toLowerCase();
    if (!(choices as readonly string[]).includes(word)) throw unknownWord(option, word, choices);
    return word as T;
  };
}

/** setTimeout's limit (about 24.8 days): a larger value would fire at once. */
const MAX_INT = 2_147_483_647;

/** A parser for a positive whole number, whose error names the option. */
export function positiveInt(option: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isInteger(n) || n <= 0 || n > MAX_INT) {
      throw new InputError(msg`${option} must be a positive integer up to ${MAX_INT}, got "${show.name(value)}"`);
    }
    return n;
  };
}

/**
 * A single-value option that may be given again (`--env A=1 --env B=2`): never variadic, since a
 * variadic option takes the next word even when it is the target file, URL or command.
 * `commas`: each value may also be a comma list (`--trust a,b`); not for values that hold commas.
 */
export function repeatable<F extends string>(flags: F, description: string, opts: { commas?: boolean } = {}) {
  return new Option(flags, `${description} (repeatable${opts.commas ? ' or comma-separated' : ''})`).argParser(
    (value: string, previous: string[] | undefined): string[] => [
      ...(previous ?? []),
      ...(opts.commas
        ? value
            .split(',')
            .map((v) => v.trim())
            .filter(Boolean)
        : [value]),
    ],
  );
}

/** A comma-list option with its choices and default in --help, parsed by listParser. */
export function listOption<F extends string>(
  flags: F,
  description: string,
  choices: readonly string[],
  defaults: string[],
  refuse?: (word: string) => string | undefined,
) {
  const option = flags.split(/[ ,]/, 1)[0]!;
  // Not commander's .choices(): it checks the whole value, not each word of the list.
  const o = new Option(flags, `${description}, comma-separated (choices: ${choices.join(', ')})`).argParser(
    listParser(option, choices, refuse),
  );
  return o.default(defaults, defaults.join(','));
}

/** A whole-number option with its default in --help. */
export function intOption<F extends string>(flags: F, description: string, defaultValue: number) {
  const option = flags.split(' ', 1)[0]!;
  return new Option(flags, description).argParser(positiveInt(option)).default(defaultValue);
}

/** The options commander hands a command's action, from its declaration (before its arguments). */
export type FlagsOf<F extends (cmd: Command, ...more: string[]) => unknown> =
  ReturnType<F> extends Command<[], infer O> ? O : never;

export const cacheDir = () =>
  new Option(
    '--cache-dir <dir>',
    'the cache: installed packages, OAuth tokens, the spool key (default: $IDEMSCAN_CACHE or ~/.cache/idemscan)',
  );
export const quiet = (what: string) => new Option('-q, --quiet', what);
/** Probe bounds each call by `--timeout` too, and says so. */
export const timeout = (what = 'bound on each server, from start to last page') =>
  intOption('--timeout <ms>', what, DEFAULTS.timeoutMs);
