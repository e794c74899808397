/**
 * `--writable PATH` and the paths a sandboxed server is given (docs/SANDBOX.md), checked before
 * anything starts: a directory that cannot be bound read-write is a usage error; a path argument
 * or env value the sandbox would hide is one for audit and probe (what the user typed), and a
 * warning per target for scan's lists.
 */
import { safeRealpath } from '../launch/bwrap.js';
import { unboundPaths, writableProblem, type GivenPath } from '../launch/writable.js';
import { defaultCacheDir } from '../model/cache-dir.js';
import { InputError } from '../model/input-error.js';
import { msg, show } from '../render/message.js';
import type { Shown } from '../model/shown.js';
import type { Target } from '../targets/types.js';

export interface WritableFlags {
  sandbox?: boolean;
  writable?: string[];
  cacheDir?: string;
}

/** The real paths of `--writable`, each checked; undefined without the flag. */
export function checkWritable(flags: WritableFlags): string[] | undefined {
  const given = flags.writable ?? [];
  if (given.length === 0) return undefined;
  if (!flags.sandbox)
    throw new InputError(
      '--writable binds a path inside the sandbox: give --sandbox too (without it a server can write everywhere you can)',
    );
  const cacheDir = flags.cacheDir ?? defaultCacheDir();
  return [
    ...new Set(
      given.map((dir) => {
        const problem = writableProblem(dir, cacheDir);
        if (problem) throw new InputError(msg`--writable ${show.path(dir)} ${problem}; nothing was started`);
        return safeRealpath(dir)!;
      }),
    ),
  ];
}

/** What the sandbox would hide of a command target's arguments and env, in words. */
function unboundOf(target: Target, writable: string[], flags: WritableFlags): GivenPath[] {
  if (!flags.sandbox || target.kind !== 'command') return [];
  const given = { args: target.args ?? [], env: target.env ?? {}, cwd: target.cwd };
  return unboundPaths(given, writable, flags.cacheDir ?? defaultCacheDir());
}

const saying = (u: GivenPath): Shown =>
  msg`${show.name(u.via)} names ${show.path(u.path)}, which the sandbox hides (the server would see nothing there, or make a new file in its private scratch space): bind it with --writable DIR (its directory), or run without --sandbox`;

/** audit and probe: a path the user typed that the sandbox would hide stops the run before the server starts. */
export function refuseUnbound(target: Target, writable: string[] | undefined, flags: WritableFlags): void {
  const [first] = unboundOf(target, writable ?? [], flags);
  if (first) throw new InputError(msg`${saying(first)}; nothing was started`);
}

/** scan: one warning per target of a list that gives its server a path the sandbox hides. */
export function unboundWarnings(targets: Target[], writable: string[] | undefined, flags: WritableFlags): Shown[] {
  return targets.flatMap((t) => {
    const [first, ...more] = unboundOf(t, writable ?? [], flags);
    const others = more.length ? msg` (and ${String(more.length)} more)` : msg``;
    return first ? [msg`${show.name(t.name)}: ${saying(first)}${others}`] : [];
  });
}
