/**
 * `--writable PATH` and the paths a sandboxed server is given (docs/SANDBOX.md), in the flags'
 * words, before anything starts. The rules are launch/writable.ts's, which the library calls
 * (app/scan/scan-input.ts) check too: here only what the CLI says. A directory that cannot be bound
 * read-write is a usage error; a path argument, env value or cwd the sandbox would hide is one for
 * audit and probe (what the user typed); scan's lists get the library's warning per target.
 */
import { hiddenWhy, realWritable, unboundOf, writableRefusal, type GivenPath } from '../launch/writable.js';
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
  const refusal = writableRefusal(flags.writable, flags.sandbox, flags.cacheDir ?? defaultCacheDir());
  if (refusal?.dir !== undefined)
    throw new InputError(msg`--writable ${show.path(refusal.dir)} ${refusal.problem}; nothing was started`);
  if (refusal)
    throw new InputError(
      '--writable binds a path inside the sandbox: give --sandbox too (without it a server can write everywhere you can)',
    );
  return flags.writable?.length ? realWritable(flags.writable) : undefined;
}

const BIND_IT = 'bind it with --writable DIR (its directory), or run without --sandbox';
const saying = (u: GivenPath, fix: string): Shown =>
  msg`${show.name(u.via)} names ${show.path(u.path)}, ${hiddenWhy(u)}: ${fix}`;

/**
 * audit and probe: a path the user typed that the sandbox would hide stops the run before the
 * server starts. A file that does not exist yet matters only to probe (`missing`): an audit's
 * listing writes nothing, so a store the server would make in its private scratch harms it not.
 */
export function refuseUnbound(
  target: Target,
  writable: string[] | undefined,
  flags: WritableFlags,
  /** `missing: 'ignore'` for audit; `fix`: what to do, for a caller without the flags (probe-census). */
  how: { missing?: 'refuse' | 'ignore'; fix?: string } = {},
): void {
  const given = unboundOf(target, writable ?? [], flags.sandbox, flags.cacheDir ?? defaultCacheDir());
  const [first] = how.missing === 'ignore' ? given.filter((u) => !u.missing) : given;
  if (first) throw new InputError(msg`${saying(first, how.fix ?? BIND_IT)}; nothing was started`);
}
