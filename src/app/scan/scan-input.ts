/** What a library caller hands `scan()` and `probe()`; plain checks, no zod, so `audit` loads no schemas. */
import { hiddenWhy, realWritable, unboundOf, writableRefusal, type GivenPath } from '../../launch/writable.js';
import { InputError } from '../../model/input-error.js';
import { isPositiveInt, targetProblems } from '../../targets/check.js';
import { toTarget } from '../../targets/kind.js';
import type { Target, TargetInput } from '../../targets/types.js';
import type { InternalScanOptions, ScanOptions } from './scan-options.js';
import { httpUrlProblem } from '../../targets/url.js';
import { isObject } from '../../model/is-object.js';

/** `targets`: not an array; `target`: one entry is malformed; `option`: a ScanOptions field is. */
export type ScanInputErrorKind = 'targets' | 'target' | 'option';

/** Thrown by `scan()` for malformed input; per-server failures stay in the report. */
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

const TRANSPORTS: readonly unknown[] = ['stdio', 'http', 'sse', 'static'] satisfies TargetInput['transport'][];

export function checkTargets(targets: unknown): Target[] {
  if (!Array.isArray(targets))
    throw new ScanInputError(
      'targets',
      'targets',
      'expected an array of targets (loadTargetFile(file).targets gives one)',
    );
  const names = new Set<string>();
  return targets.map((t: unknown, i) => checkTarget(t, `targets[${i}]`, names));
}

export function checkTarget(t: unknown, at = 'targets[0]', names = new Set<string>()): Target {
  const fail = (field: string, detail: string) => new ScanInputError('target', field ? `${at}.${field}` : at, detail);
  if (!isObject(t)) throw fail('', 'expected an object { name, source, transport, ... }');
  const [problem] = targetProblems(t);
  if (problem?.field === 'name' || problem?.field === 'source') throw fail(problem.field, problem.message);
  if (names.has(t.name as string))
    throw fail('name', `duplicate name "${String(t.name).slice(0, 100)}": each server needs its own`);
  names.add(t.name as string);
  if (!TRANSPORTS.includes(t.transport)) {
    throw fail(
      'transport',
      `required: "stdio" for a command or npm package, "http" or "sse" for a url, "static" for a saved tool list${t.transport === undefined ? '' : ` (got ${JSON.stringify(t.transport)?.slice(0, 40)})`}`,
    );
  }
  if (problem) throw fail(problem.field, problem.message);
  const urlProblem = typeof t.url === 'string' ? httpUrlProblem(t.url) : undefined;
  if (urlProblem) throw fail('url', urlProblem);
  return toTarget(t as unknown as TargetInput);
}

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

/** One message for library and CLI callers: it names the option and the flag. */
const bindIt = 'bind its directory read-write with the writable option (--writable DIR), or run without the sandbox';
const unboundText = (u: GivenPath) => `${u.via} names ${u.path}, ${hiddenWhy(u)}: ${bindIt}`;

export function refuseUnbound(target: Target, writable: readonly string[], options: ScanOptions, cacheDir: string) {
  const [first] = unboundOf(target, writable, options.sandbox, cacheDir);
  if (first) throw new ScanInputError('target', `target.${first.field}`, `${unboundText(first)}; nothing was started`);
}
