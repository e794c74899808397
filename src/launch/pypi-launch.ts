/** `uvx` servers become `pypi` targets; an unpinned one is resolved before install (pypi-resolve.ts). */
import { pypiLaunchOf } from './launchers.js';
import { packageUrlProblem, parsePypiSpec } from '../model/package-spec.js';
import type { Target } from '../targets/types.js';

const INDEX_FLAGS = new Set(['--index-url', '-i', '--default-index']);
const PLAIN = new Set(['-q', '--quiet', '--no-progress', '--isolated']);

export interface UvxLaunch {
  spec: string;
  pinned?: string;
  bin?: string;
  index?: string;
  args: string[];
}

/** The words after `uvx` (or `uv tool run`), read by uvx's grammar; undefined when not certain. */
export function readUvx(command: string, args: readonly string[]): UvxLaunch | undefined {
  if (!pypiLaunchOf(command, args)) return undefined;
  const rest = command.replace(/^.*\//, '') === 'uv' ? args.slice(2) : args;
  let from: string | undefined;
  let index: string | undefined;
  let i = 0;
  for (; i < rest.length; i++) {
    const word = rest[i]!;
    if (!word.startsWith('-')) break;
    const eq = word.indexOf('=');
    const flag = eq > 0 ? word.slice(0, eq) : word;
    if (PLAIN.has(word)) continue;
    if (flag !== '--from' && !INDEX_FLAGS.has(flag)) return undefined;
    const value = eq > 0 ? word.slice(eq + 1) : rest[++i];
    if (value === undefined) return undefined;
    if (flag === '--from') from = value;
    else index = value;
  }
  const positional = rest[i];
  if (positional === undefined) return undefined;
  const spec = from ?? positional;
  const at = spec.indexOf('@');
  const asPep = at > 0 && !spec.includes('==') ? `${spec.slice(0, at)}==${spec.slice(at + 1)}` : spec;
  const got = parsePypiSpec(asPep);
  if (from !== undefined && !/^[\w.-]{1,200}$/.test(positional)) return undefined; // a command name, not a path
  const bare = /^[A-Z0-9][\w.-]{0,199}$/i.test(spec);
  if ('error' in got && !bare && !spec.endsWith('@latest')) return undefined; // a URL, a path, an extra, a range
  const name = 'error' in got ? spec.replace(/@latest$/, '') : got.name;
  return {
    spec,
    pinned: 'error' in got ? undefined : `${got.name}==${got.version}`,
    bin: from !== undefined ? positional : name,
    index,
    args: rest.slice(i + 1),
  };
}

export function pypiLaunchTargets(targets: Target[]): Target[] {
  return targets.map((t): Target => {
    if (t.kind !== 'command') return t;
    const found = readUvx(t.command, t.args ?? []);
    if (!found || (found.index !== undefined && packageUrlProblem(found.index, true))) return t;
    const { command: _, ...started } = t;
    const spec = found.pinned ?? found.spec.replace(/@latest$/, '');
    return {
      ...started,
      kind: 'package',
      args: found.args,
      package: { type: 'pypi', spec, bin: found.bin, index: found.index },
      launcher: { runner: 'uvx', spec: found.spec, resolved: found.pinned === undefined },
    };
  });
}

/** Why a uvx server left as configured cannot run in the sandbox, or undefined when it is not one. */
export function pypiProblem(target: Target): string | undefined {
  if (target.kind !== 'command') return undefined;
  const found = pypiLaunchOf(target.command, target.args ?? []);
  if (!found) return undefined;
  const read = readUvx(target.command, target.args ?? []);
  const what = found.spec ?? 'its package';
  if (read?.index !== undefined)
    return `uvx ${what}: its index ${read.index} is not one idemscan reads (https, loopback http or a file:// directory)`;
  return `uvx ${what}: idemscan cannot read this uvx command line (an option, extra or source it does not know), and uvx would download it at start-up, which the sandbox's lack of network prevents (write it as {"pypi": "name==1.2.3"}, or scan without --sandbox)`;
}
