/** Target files may be hostile and become argv, env and headers: each field is checked where errors can name it. */
import { z } from 'zod';
import { parseOciRef, parsePinnedSpec, parsePypiSpec } from '../../model/package-spec.js';
import { envNameProblem, headerNameProblem, headerValueProblem } from '../names.js';
import { isObject } from '../../model/is-object.js';

const noNul = (s: string) => !s.includes('\0');

/** Text that becomes an argument, a command, a path or an env value: the OS cannot take a NUL. */
export const launchText = z.string().refine(noNul, 'contains a NUL character');

const checked = (problem: (s: string) => string | undefined) =>
  z.string().superRefine((s, ctx) => {
    const found = problem(s);
    if (found) ctx.addIssue({ code: 'custom', message: found, input: s });
  });
export const headerValue = checked(headerValueProblem);
/** For formats that list names and values (the registry's `environmentVariables`, `headers`). */
export const envName = checked(envNameProblem);
export const headerName = checked(headerNameProblem);

/** `z.record` silently drops a `__proto__` key; here it is a name like any other, and none reaches a prototype. */
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
/** Header names to something else (Codex's `env_http_headers`: the variable holding each value). */
export const headerNames = <V extends z.ZodType<string, unknown>>(value: V) => nameMap(value, headerNameProblem);
export const headerMap = headerNames(headerValue);

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
