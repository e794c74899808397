/**
 * Schemas for the launch fields every format shares. A target file may come from a pull request or
 * a registry: what it says becomes a process's arguments and environment or a request's headers, so
 * each field is checked here, where the error can still name it, rather than failing (or doing
 * something else) at spawn time.
 */
import { z } from 'zod';
import { parseOciRef, parsePinnedSpec, parsePypiSpec } from '../../model/package-spec.js';
import { refusedEnvName } from '../refused-env.js';

const noNul = (s: string) => !s.includes('\0');

/** Text that becomes an argument, a command, a path or an env value: the OS cannot take a NUL. */
export const launchText = z.string().refine(noNul, 'contains a NUL character');

/** The OS splits `NAME=value` at the first `=`: a name with one would set another variable. Loader
 * and engine variables are refused outright (targets/refused-env.ts). */
function envNameProblem(name: string): string | undefined {
  if (name === '') return 'empty environment variable name';
  if (name.includes('=') || !noNul(name)) return 'an environment variable name cannot contain "=" or NUL';
  return refusedEnvName(name);
}

/** An HTTP header name is a token (RFC 9110); anything else makes fetch throw on every request. */
const HEADER_NAME = /^[!#$%&'*+.^\w`|~-]+$/;
const headerNameProblem = (name: string) => (HEADER_NAME.test(name) ? undefined : 'not a valid HTTP header name');
/** CR or LF in a header value would start another header. */
export const headerValue = z.string().refine((s) => !/[\r\n\0]/.test(s), 'contains a line break or NUL');

const checked = (problem: (s: string) => string | undefined) =>
  z.string().superRefine((s, ctx) => {
    const found = problem(s);
    if (found) ctx.addIssue({ code: 'custom', message: found, input: s });
  });
/** For formats that list names and values (the registry's `environmentVariables`, `headers`). */
export const envName = checked(envNameProblem);
export const headerName = checked(headerNameProblem);

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * A name -> value map read into a null-prototype object. `z.record` drops a `__proto__` key without
 * a word; here it is a name like any other (the OS and fetch take it as such), and no name can reach
 * a prototype.
 */
function nameMap<V extends z.ZodType<string, unknown>>(value: V, nameProblem: (name: string) => string | undefined) {
  return z
    .custom<Record<string, unknown>>(isObject, 'expected an object of names to values')
    .transform((input, ctx) => {
      const out: Record<string, string> = Object.create(null) as Record<string, string>;
      for (const name of Object.keys(input)) {
        const problem = nameProblem(name);
        if (problem) {
          ctx.addIssue({ code: 'custom', message: problem, path: [name], input: name });
          continue;
        }
        const parsed = value.safeParse(input[name]);
        if (parsed.success) out[name] = parsed.data;
        else for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, path: [name, ...issue.path] } as never);
      }
      return out;
    });
}

export const envMap = <V extends z.ZodType<string, unknown>>(value: V) => nameMap(value, envNameProblem);
export const headerMap = nameMap(headerValue, headerNameProblem);

/** `name@version`, pinned (see model/package-spec.ts). */
export const npmSpec = checked((spec) => {
  const got = parsePinnedSpec(spec);
  return 'error' in got ? got.error : undefined;
});

/** A bin of the package: a name, never a path. */
export const binName = z
  .string()
  .min(1)
  .refine((s) => !/[/\\\0]/.test(s) && s !== '.' && s !== '..', 'a bin name, not a path');

/** `name==1.2.3`, pinned (see model/package-spec.ts). */
export const pypiSpec = checked((spec) => {
  const got = parsePypiSpec(spec);
  return 'error' in got ? got.error : undefined;
});

/** An OCI image by a tag other than `latest`, or by digest. */
export const ociRef = checked((ref) => {
  const got = parseOciRef(ref);
  return 'error' in got ? got.error : undefined;
});
