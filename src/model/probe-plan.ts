// The plan of `idemscan probe` (docs/PROBE.md): nothing outside it is ever called.
import { z } from 'zod';
import { MAX_JSON_DEPTH, parseJson } from './bounded-input.js';
import { InputError, type InputPlace } from './input-error.js';
import { describeZodError } from './zod-errors.js';

const Args = z.record(z.string(), z.unknown());

/** An observer, or a set-up step. */
const ToolCall = z.strictObject({ tool: z.string().min(1), arguments: Args.default({}) });

const PlannedTool = z.strictObject({
  /** The key goes in on top of them. */
  arguments: Args.default({}),
  /** A read-only tool whose answer changes with the effect; without one the outcome is `inconclusive`. */
  observe: ToolCall.optional(),
  /** Sent with the same key: a server should refuse them (`idempotency_key_conflict`). */
  conflictArguments: Args.optional(),
  /** Replaces --timeout for this tool's calls only, not connecting or the observer. */
  timeoutMs: z.number().int().min(1).max(86_400_000).optional(),
});

export const ProbePlan = z.strictObject({
  /** Called once each, in order, before the experiments. */
  setup: z.array(ToolCall).optional(),
  /** For every planned tool that names none. */
  observe: ToolCall.optional(),
  /** A list is one experiment per case. */
  tools: z
    .record(
      z.string().min(1),
      z.union([PlannedTool, z.array(PlannedTool).min(1, 'a list of cases needs one case')], {
        // A planned object's own issues keep their words.
        error: (issue) =>
          issue.code === 'invalid_union' ? 'expected a planned tool (an object) or a list of cases' : undefined,
      }),
    )
    .refine((t) => Object.keys(t).length > 0, 'the plan names no tool'),
});

export type ProbePlan = z.infer<typeof ProbePlan>;
export type PlannedTool = z.infer<typeof PlannedTool>;
export type PlannedCall = z.infer<typeof ToolCall>;

export interface PlannedExperiment {
  name: string;
  /** 1-based; absent for a tool planned as one object. */
  case?: number;
  planned: PlannedTool;
}

export function planExperiments(plan: ProbePlan): PlannedExperiment[] {
  const withObserver = (t: PlannedTool): PlannedTool =>
    t.observe || !plan.observe ? t : { ...t, observe: plan.observe };
  return Object.entries(plan.tools).flatMap(([name, t]) =>
    Array.isArray(t)
      ? t.map((c, i) => ({ name, case: i + 1, planned: withObserver(c) }))
      : [{ name, planned: withObserver(t) }],
  );
}

/** Unreadable, not JSON, not a plan, or naming a tool the server does not list. */
export class PlanError extends InputError {
  constructor(detail: string, place: InputPlace = {}) {
    super(detail, place);
    this.name = 'PlanError';
  }
}

/** `source` names the plan in errors; `at` is where it sits in the file (`plan` names `plan.tools.x`). */
export function parsePlan(data: unknown, source = 'plan', at = ''): ProbePlan {
  return checkPlan(data, { file: source }, at);
}

function checkPlan(data: unknown, place: InputPlace, at = ''): ProbePlan {
  const parsed = ProbePlan.safeParse(data);
  if (!parsed.success)
    throw new PlanError(describeZodError(at, new z.ZodError(branchIssues(data, parsed.error))), place);
  return parsed.data;
}

/** A wrong object gets its own fields' issues (`tools.a.timeoutMs`), not zod's "matches neither". */
function branchIssues(data: unknown, error: z.ZodError): z.core.$ZodIssue[] {
  return error.issues.flatMap((issue) => {
    if (issue.code !== 'invalid_union' || issue.path.length !== 2 || issue.path[0] !== 'tools') return [issue];
    const value = (data as { tools: Record<string, unknown> }).tools[String(issue.path[1])];
    if (!value || typeof value !== 'object') return [issue];
    const branch = issue.errors[Array.isArray(value) ? 1 : 0] ?? [];
    return branch.map((i) => ({ ...i, path: [...issue.path, ...i.path] }));
  });
}

export const MAX_PLAN_BYTES = 4 * 1024 * 1024;

export function planOfText(text: string, file: string): ProbePlan {
  const place = { field: '--plan', file };
  const parsed = parseJson(text, { maxBytes: MAX_PLAN_BYTES, maxDepth: MAX_JSON_DEPTH });
  if ('error' in parsed)
    throw new PlanError(parsed.why === 'syntax' ? `not JSON (${parsed.error})` : parsed.error, place);
  return checkPlan(parsed.value, place);
}

export function plannedCalls(plan: ProbePlan): { tools: string[]; observers: string[]; setup: string[] } {
  const tools = Object.keys(plan.tools);
  const observed = planExperiments(plan).flatMap((e) => (e.planned.observe ? [e.planned.observe.tool] : []));
  const observers = [...new Set(observed)].filter((o) => !tools.includes(o));
  const setup = [...new Set((plan.setup ?? []).map((s) => s.tool))];
  return { tools, observers, setup };
}

/** The first place each tool is named, for an error that names the field. */
export function planFields(plan: ProbePlan): Map<string, string> {
  const out = new Map<string, string>();
  const add = (tool: string, field: string) => void (out.has(tool) || out.set(tool, field));
  (plan.setup ?? []).forEach((s, i) => add(s.tool, `setup[${i}].tool`));
  if (plan.observe) add(plan.observe.tool, 'observe.tool');
  for (const [name, t] of Object.entries(plan.tools)) {
    add(name, `tools.${name}`);
    const cases = Array.isArray(t) ? t.map((c, i) => [c, `[${i}]`] as const) : [[t, ''] as const];
    for (const [c, at] of cases) if (c.observe) add(c.observe.tool, `tools.${name}${at}.observe.tool`);
  }
  return out;
}
