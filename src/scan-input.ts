/**
 * What a library caller hands `scan()`, checked before anything starts. Target files are
 * validated when read (targets/types.ts); targets built in code are not, and a missing
 * `transport` used to reach the connector as an HTTP target with no URL ("Invalid URL"). Plain
 * checks, no zod: `audit` of one server loads none of the schemas.
 */
import { hiddenWhy, realWritable, unboundOf, writableRefusal, type GivenPath } from './launch/writable.js';
import { InputError } from './model/input-error.js';
import type { Target, TargetInput } from './targets/types.js';
import type { InternalScanOptions, ScanOptions } from './scan-options.js';
import { httpUrlProblem } from './targets/url.js';
import { entryProblem } from './targets/names.js';

/** `targets`: not an array; `target`: one entry is malformed; `option`: a ScanOptions field is. */
export type ScanInputErrorKind = 'targets' | 'target' | 'option';

/** Thrown (the promise rejects) by `scan()` for malformed input; per-server failures stay in the report. An InputError, whose `field` is `path`. */
export class ScanInputError extends InputError {
  constructor(
    readonly kind: ScanInputErrorKind,
    /** Where: `targets[2].transport`, `options.timeoutMs`. */
    readonly path: string,
    detail: string,
  ) {
    super(detail, { field: path });
    this.name = 'ScanInputError';
  }
}

const TRANSPORTS = ['stdio', 'http', 'sse', 'static'] as const;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown) => typeof v === 'string' && v !== '';
const isTextRecord = (v: unknown): v is Record<string, string> =>
  isObject(v) && Object.values(v).every((x) => typeof x === 'string');

/** Throws a ScanInputError for the first malformed target. */
export function checkTargets(targets: unknown): asserts targets is TargetInput[] {
  if (!Array.isArray(targets))
    throw new ScanInputError(
      'targets',
      'targets',
      'expected an array of targets (loadTargetFile(file).targets gives one)',
    );
  const names = new Set<string>();
  targets.forEach((t: unknown, i) => {
    const at = `targets[${i}]`;
    const fail = (field: string, detail: string) => new ScanInputError('target', field ? `${at}.${field}` : at, detail);
    if (!isObject(t)) throw fail('', 'expected an object { name, source, transport, ... }');
    if (!isText(t.name)) throw fail('name', 'required: a non-empty string');
    if (names.has(t.name as string))
      throw fail('name', `duplicate name "${String(t.name).slice(0, 100)}": each server needs its own`);
    names.add(t.name as string);
    if (typeof t.source !== 'string')
      throw fail('source', 'required: a string saying where the target came from (shown in errors)');
    if (!(TRANSPORTS as readonly unknown[]).includes(t.transport)) {
      throw fail(
        'transport',
        `required: "stdio" for a command or npm package, "http" or "sse" for a url, "static" for a saved tool list${t.transport === undefined ? '' : ` (got ${JSON.stringify(t.transport)?.slice(0, 40)})`}`,
      );
    }
    if (t.transport === 'static') {
      if (!isObject(t.saved) || !Array.isArray(t.saved.tools))
        throw fail('saved', 'a static target needs saved: { tools: [...] } (a saved tools/list result)');
      if ([t.command, t.npm, t.pypi, t.mcpb, t.oci, t.url].some((v) => v !== undefined))
        throw fail('saved', 'a static target is a saved list: it takes no command, package or url');
    } else if (t.transport === 'stdio') {
      if ([t.command, t.npm, t.pypi, t.mcpb, t.oci].filter((v) => v !== undefined).length !== 1)
        throw fail('command', 'a stdio target needs exactly one of "command", "npm", "pypi", "mcpb" or "oci"');
      if (t.pypi !== undefined && !isText(t.pypi)) throw fail('pypi', 'expected a pinned package, "name==1.2.3"');
      if (t.oci !== undefined && !isText(t.oci))
        throw fail('oci', 'expected a pinned image, "registry/name:1.2.3" or "name@sha256:..."');
      if (
        t.mcpb !== undefined &&
        !(isObject(t.mcpb) && typeof t.mcpb.url === 'string' && typeof t.mcpb.sha256 === 'string')
      )
        throw fail('mcpb', 'expected { url, sha256 }');
      if (t.command !== undefined && !isText(t.command)) throw fail('command', 'expected a non-empty string');
      if (t.npm !== undefined && !isText(t.npm)) throw fail('npm', 'expected a pinned package, "name@1.2.3"');
      if (t.url !== undefined) throw fail('url', 'a stdio target takes no url (transport "http" or "sse" for one)');
      if (t.args !== undefined && !(Array.isArray(t.args) && t.args.every((a) => typeof a === 'string')))
        throw fail('args', 'expected an array of strings');
      if (t.env !== undefined && !isTextRecord(t.env)) throw fail('env', 'expected an object of string values');
      const env = t.env && entryProblem(t.env, 'env');
      if (env) throw fail(`env.${JSON.stringify(env[0]).slice(0, 100)}`, env[1]);
      if (t.cwd !== undefined && typeof t.cwd !== 'string') throw fail('cwd', 'expected a string');
    } else {
      if (typeof t.url !== 'string')
        throw fail('url', `required for transport "${String(t.transport)}": an http(s) URL`);
      const problem = httpUrlProblem(t.url);
      if (problem) throw fail('url', problem);
      if (t.command !== undefined || t.npm !== undefined)
        throw fail(
          t.command !== undefined ? 'command' : 'npm',
          `a "${String(t.transport)}" target is a url (transport "stdio" for a command or package)`,
        );
      if (t.headers !== undefined && !isTextRecord(t.headers))
        throw fail('headers', 'expected an object of string values');
      const header = t.headers && entryProblem(t.headers, 'headers');
      if (header) throw fail(`headers.${JSON.stringify(header[0]).slice(0, 100)}`, header[1]);
    }
    if (t.timeoutMs !== undefined && !isPositiveInt(t.timeoutMs))
      throw fail('timeoutMs', 'expected a positive whole number of milliseconds');
    if (t.trusted !== undefined && typeof t.trusted !== 'boolean') throw fail('trusted', 'expected true or false');
  });
}

const isPositiveInt = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v > 0 && v <= 2_147_483_647;

/** The numbers of ScanOptions (scan-options.ts), and the internal tuning's, which tests set. */
const NUMERIC_OPTIONS = [
  'concurrency',
  'httpConcurrency',
  'timeoutMs',
  'probeTimeoutMs',
  'maxPages',
  'maxTools',
  'maxServerBytes',
  'maxFrameBytes',
  'stderrTailBytes',
  'killGraceMs',
] as const satisfies readonly (keyof InternalScanOptions)[];

/** The numeric and list options, the ones a caller from plain JavaScript most easily gets wrong. */
export function checkOptions(options: unknown): void {
  if (options === undefined) return;
  if (!isObject(options)) throw new ScanInputError('option', 'options', 'expected an object');
  for (const key of NUMERIC_OPTIONS) {
    if (options[key] !== undefined && !isPositiveInt(options[key]))
      throw new ScanInputError('option', `options.${key}`, 'expected a positive whole number');
  }
  const trust = options.trust;
  if (trust !== undefined && !(Array.isArray(trust) && trust.every((n) => typeof n === 'string')))
    throw new ScanInputError('option', 'options.trust', 'expected an array of server names');
  const writable = options.writable;
  if (writable !== undefined && !(Array.isArray(writable) && writable.every((d) => typeof d === 'string' && d !== '')))
    throw new ScanInputError('option', 'options.writable', 'expected an array of directory paths');
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal))
    throw new ScanInputError('option', 'options.signal', 'expected an AbortSignal');
}

/**
 * `writable` (`--writable`, docs/SANDBOX.md): the real directories to bind read-write, each
 * checked by launch/writable.ts's rules; undefined when none is given. A ScanInputError naming
 * `options.writable` for one that would undo the hiding, or without `sandbox`.
 */
export function checkWritableOption(options: Pick<ScanOptions, 'writable' | 'sandbox'>, cacheDir: string) {
  const refusal = writableRefusal(options.writable, options.sandbox, cacheDir);
  if (refusal?.dir === undefined && refusal)
    throw new ScanInputError(
      'option',
      'options.writable',
      `${refusal.problem}: set sandbox: true (--sandbox) too; without it a server can write everywhere you can`,
    );
  if (refusal)
    throw new ScanInputError('option', 'options.writable', `${refusal.dir} ${refusal.problem}; nothing was started`);
  return options.writable?.length ? realWritable(options.writable) : undefined;
}

/** How the library says it (one message for library and CLI callers: it names the option and the flag). */
const bindIt = 'bind its directory read-write with the writable option (--writable DIR), or run without the sandbox';
const unboundText = (u: GivenPath) => `${u.via} names ${u.path}, ${hiddenWhy(u)}: ${bindIt}`;

/** probe(): a path the sandbox would hide is a ScanInputError naming the target's field, before the server starts. */
export function refuseUnbound(target: Target, writable: readonly string[], options: ScanOptions, cacheDir: string) {
  const [first] = unboundOf(target, writable, options.sandbox, cacheDir);
  if (first) throw new ScanInputError('target', `target.${first.field}`, `${unboundText(first)}; nothing was started`);
}

/**
 * scan(): one warning per target that gives its server an existing path the sandbox would hide
 * (its listing may then differ or fail). A path that does not exist yet is left out: a listing
 * writes nothing, and a store the server makes in its private scratch space harms no scan (the
 * reference list's memory server is given such a file). probe() refuses both.
 */
export function unboundWarnings(
  targets: readonly Target[],
  writable: readonly string[],
  options: ScanOptions,
  cacheDir: string,
) {
  return targets.flatMap((t) => {
    const [first, ...more] = unboundOf(t, writable, options.sandbox, cacheDir).filter((u) => !u.missing);
    const others = more.length ? ` (and ${more.length} more)` : '';
    return first ? [`${t.name.slice(0, 100)}: ${unboundText(first)}${others}`] : [];
  });
}
