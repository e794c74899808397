/** Runners (`npx -y pkg@1.2.3`, `uvx`, ...) download at start; an npm one becomes a cached `{"npm": ...}` launch. */
// Only what the runner's own grammar makes certain is taken: anything else leaves the entry as it was.
import parseSemver from 'semver/functions/parse.js';
import validRange from 'semver/ranges/valid.js';
import { exactVersionProblem, npmNameProblem } from '../model/package-spec.js';

type NpmRunner = 'npx' | 'npm exec' | 'pnpm dlx' | 'bunx' | 'yarn dlx';

/** What a config's package names: its exact version, or the range or dist-tag to resolve (`latest` when it names none). */
type NpmVersion = { version: string; range?: undefined } | { version?: undefined; range: string };

export type NpmLaunch = NpmVersion & {
  runner: NpmRunner;
  /** The package as the config names it: `name`, `name@1.2.3`, `name@^1`, `name@latest`. */
  spec: string;
  name: string;
  /** A bin other than the package's own (`npx -p pkg some-bin`). */
  bin?: string;
  args: string[];
};

/** `uvx pkg` (PyPI): recognised so that the sandbox can say why it cannot run it yet. */
export interface PypiLaunch {
  runner: 'uvx';
  spec?: string;
}

/** The command's own name: `/usr/local/bin/npx`, `npx.cmd` (Windows configs) are `npx`. */
function commandName(command: string): string {
  const base = command.slice(Math.max(command.lastIndexOf('/'), command.lastIndexOf('\\')) + 1);
  return base.replace(/\.(?:cmd|exe|ps1)$/i, '').toLowerCase();
}

/** A runner's flags that change nothing about which package runs or how, as its own docs list them. */
interface Grammar {
  runner: NpmRunner;
  plain: ReadonlySet<string>;
  /** Ignored; the value is the next word or after `=`. */
  valued: ReadonlySet<string>;
  /** Its flag naming the package, whose positional word is then a bin. */
  packageFlags: ReadonlySet<string>;
  /** npm exec reads flags anywhere until `--`; the others stop at the package. */
  flagsAnywhere?: boolean;
}

const set = (...words: string[]) => new Set(words);
const NPX: Grammar = {
  runner: 'npx',
  plain: set(
    '-y',
    '--yes',
    '--yes=true',
    '-q',
    '--quiet',
    '--silent',
    '--prefer-offline',
    '--prefer-online',
    '--ignore-existing',
    '--no-update-notifier',
  ),
  valued: set('--loglevel'),
  packageFlags: set('-p', '--package'),
};
const NPM_EXEC: Grammar = { ...NPX, runner: 'npm exec', flagsAnywhere: true };
const PNPM_DLX: Grammar = {
  runner: 'pnpm dlx',
  plain: set('-s', '--silent'),
  valued: set('--reporter'),
  packageFlags: set('--package'),
};
const BUNX: Grammar = {
  runner: 'bunx',
  plain: set('--silent', '--verbose'),
  valued: set(),
  packageFlags: set('-p', '--package'),
};
const YARN_DLX: Grammar = {
  runner: 'yarn dlx',
  plain: set('-q', '--quiet'),
  valued: set(),
  packageFlags: set('-p', '--package'),
};

function runnerOf(command: string, args: readonly string[]): { grammar: Grammar; rest: readonly string[] } | undefined {
  const name = commandName(command);
  const [first, ...after] = args;
  if (name === 'npx') return { grammar: NPX, rest: args };
  if (name === 'bunx') return { grammar: BUNX, rest: args };
  if (name === 'pnpx') return { grammar: PNPM_DLX, rest: args };
  if (name === 'npm' && (first === 'exec' || first === 'x')) return { grammar: NPM_EXEC, rest: after };
  if (name === 'bun' && first === 'x') return { grammar: BUNX, rest: after };
  if (name === 'yarn' && first === 'dlx') return { grammar: YARN_DLX, rest: after };
  if (name === 'pnpm') {
    // pnpm's global `--silent` may come before the command.
    const at = args.findIndex((a) => a !== '-s' && a !== '--silent');
    if (args[at] === 'dlx') return { grammar: PNPM_DLX, rest: args.slice(at + 1) };
  }
  return undefined;
}

/** The npm package launch this command line stands for, or undefined when it is not one we can read safely. */
export function npmLaunchOf(command: string, args: readonly string[]): NpmLaunch | undefined {
  const found = runnerOf(command, args);
  if (!found) return undefined;
  const { grammar, rest } = found;
  let pkg: string | undefined;
  let i = 0;
  for (; i < rest.length; i++) {
    const word = rest[i]!;
    if (word === '--') {
      i++;
      break;
    }
    if (!word.startsWith('-')) break;
    const eq = word.indexOf('=');
    const flag = eq > 0 ? word.slice(0, eq) : word;
    if (grammar.plain.has(word)) continue;
    if (grammar.valued.has(flag) || grammar.packageFlags.has(flag)) {
      const value = eq > 0 ? word.slice(eq + 1) : rest[++i];
      if (value === undefined) return undefined;
      if (grammar.packageFlags.has(flag)) {
        if (pkg !== undefined) return undefined; // two packages: not one server's launch
        pkg = value;
      }
      continue;
    }
    return undefined; // a flag we do not know may change what runs (`--call`, `--registry`, `--bun`)
  }
  const positional = rest[i];
  if (positional === undefined) return undefined;
  let tail = rest.slice(i + 1);
  if (grammar.flagsAnywhere && rest[i - 1] !== '--') {
    // npm exec reads `pkg --flag` as its own flag: only words, then `--`, then the server's arguments.
    const sep = tail.indexOf('--');
    const before = sep < 0 ? tail : tail.slice(0, sep);
    if (before.some((w) => w.startsWith('-'))) return undefined;
    tail = sep < 0 ? tail : [...before, ...tail.slice(sep + 1)];
  }
  const spec = parseNpmSpec(pkg ?? positional);
  if (!spec) return undefined;
  let bin: string | undefined;
  if (pkg !== undefined) {
    if (!/^[\w~-][\w.~-]*$/.test(positional)) return undefined; // a bin name, never a path or a spec
    if (positional !== unscoped(spec.name)) bin = positional;
  }
  return { runner: grammar.runner, spec: pkg ?? positional, ...spec, bin, args: [...tail] };
}

const unscoped = (name: string) => name.replace(/^@[^/]+\//, '');

/** A dist-tag as npm allows one: not a version or range, no path or URL characters. */
const DIST_TAG = /^[a-z][\w.-]{0,63}$/i;

/** Aliases (`npm:`), paths, tarballs and git URLs are not package specs here. */
export function parseNpmSpec(word: string): (NpmVersion & { name: string }) | undefined {
  const at = word.indexOf('@', 1);
  const name = at < 0 ? word : word.slice(0, at);
  const version = at < 0 ? undefined : word.slice(at + 1);
  if (npmNameProblem(name)) return undefined;
  if (version === undefined || version === '') return { name, range: 'latest' };
  if (!exactVersionProblem(version)) return { name, version };
  // A version npm would take (`v1.2.3`, ` 1.2.3`) but not in its canonical spelling: resolved too.
  if (parseSemver(version) || validRange(version) !== null || DIST_TAG.test(version)) return { name, range: version };
  return undefined;
}

/** `uvx [options] pkg args` or `uv tool run ...`: a PyPI server. */
export function pypiLaunchOf(command: string, args: readonly string[]): PypiLaunch | undefined {
  const name = commandName(command);
  let rest: readonly string[];
  if (name === 'uvx') rest = args;
  else if (name === 'uv' && args[0] === 'tool' && (args[1] === 'run' || args[1] === 'uvx')) rest = args.slice(2);
  else return undefined;
  // Only for the message: the `--from` package, else the first word that is not a flag or a flag's value.
  const VALUED = new Set([
    '--from',
    '--with',
    '--with-editable',
    '--with-requirements',
    '--python',
    '-p',
    '--index',
    '--index-url',
    '-i',
    '--extra-index-url',
    '--default-index',
    '--directory',
    '--project',
    '--config-file',
    '--cache-dir',
  ]);
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i]!;
    if (word === '--from') return { runner: 'uvx', spec: rest[i + 1] };
    if (word.startsWith('--from=')) return { runner: 'uvx', spec: word.slice(7) };
    if (VALUED.has(word)) i++;
    else if (!word.startsWith('-')) return { runner: 'uvx', spec: word };
  }
  return { runner: 'uvx' };
}
