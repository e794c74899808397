/** `expect`: each experiment's true outcome, from the server's source; shaped like `plan.tools`. */
import { z } from 'zod';
import { InputError } from '../../model/input-error.js';
import type { ProbePlan } from '../../model/probe-plan.js';
import { describeZodError } from '../../model/zod-errors.js';
import { msg, show } from '../../render/message.js';

const Expected = z.strictObject({
  outcome: z.enum(['retry-safe', 'reissue-refused', 'repeated-effect', 'inconclusive', 'failed']),
  /** Where the source says so: file and function. */
  why: z.string().min(1, 'cite the source: file and function'),
});

export type Expected = z.infer<typeof Expected>;
/** By tool: one for a tool planned once, one per case (in order) for a list of cases. */
export type LibraryExpect = Record<string, Expected | Expected[]>;

/** Each entry checked, and its shape against the plan's (the errors name `expect.TOOL[...]`). */
export function checkExpect(raw: Record<string, unknown>, plan: ProbePlan, file: string): LibraryExpect {
  const out: LibraryExpect = Object.create(null) as LibraryExpect;
  for (const [tool, value] of Object.entries(raw)) {
    const field = `expect.${tool}`;
    const planned = Object.hasOwn(plan.tools, tool) ? plan.tools[tool] : undefined;
    if (planned === undefined)
      throw new InputError(msg`${show.name(field)}: the plan does not probe ${show.quoted(tool, 'name')}`, { file });
    const parsed = (Array.isArray(value) ? z.array(Expected) : Expected).safeParse(value);
    if (!parsed.success) throw new InputError(describeZodError(field, parsed.error), { file });
    const problem = shapeProblem(parsed.data, planned);
    if (problem) throw new InputError(msg`${show.name(field)}: ${problem}`, { file });
    out[tool] = parsed.data;
  }
  return out;
}

function shapeProblem(expected: Expected | Expected[], planned: ProbePlan['tools'][string]): string | undefined {
  if (!Array.isArray(planned))
    return Array.isArray(expected) ? 'the plan probes this tool once: give one {outcome, why}, not a list' : undefined;
  if (!Array.isArray(expected)) return `the plan lists ${planned.length} cases: give a list of ${planned.length}`;
  return expected.length === planned.length
    ? undefined
    : `the plan lists ${planned.length} cases and this ${expected.length}: one {outcome, why} per case, in order`;
}

/** The expected outcome of one experiment (`case` 1-based for a tool planned as cases). */
export function expectedOf(expect: LibraryExpect | undefined, tool: string, at?: number): Expected | undefined {
  const e = expect && Object.hasOwn(expect, tool) ? expect[tool] : undefined;
  if (e === undefined) return undefined;
  return Array.isArray(e) ? (at === undefined ? undefined : e[at - 1]) : at === undefined ? e : undefined;
}
