/** `--writable` and sandbox paths (docs/SANDBOX.md) in the flags' words; the rules are launch/writable.ts's. */
import { hiddenWhy, realWritable, unboundOf, writableRefusal, type GivenPath } from '../launch/writable.js';
import { defaultCacheDir } from '../model/cache-dir.js';
import { InputError } from '../model/input-error.js';
import { msg, show } from '../render/message.js';
import type { Shown } from '../model/shown.js';
import type { Target } from '../targets/types.js';

export interface SandboxSettings {
  sandbox?: boolean;
  writable?: string[];
  cacheDir?: string;
}

export function checkWritable(flags: SandboxSettings): string[] | undefined {
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

/** Probe runs tools, so what the sandbox would hide of its target, or lose when it ends, is refused. */
export function refuseUnbound(
  target: Target,
  writable: string[] | undefined,
  flags: SandboxSettings,
  /** What to do, for a caller without the flags (probe-census). */
  how: { fix?: string } = {},
): void {
  const [first] = unboundOf(target, writable ?? [], flags.sandbox, flags.cacheDir ?? defaultCacheDir());
  if (first) throw new InputError(msg`${saying(first, how.fix ?? BIND_IT)}; nothing was started`);
}
