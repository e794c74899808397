/**
 * The plan of `idemscan probe` (docs/PROBE.md): which tools it may call, with what, and which
 * read-only tool shows their effect. Nothing outside it is ever called.
 */
import { z } from 'zod';
import { MAX_JSON_DEPTH, parseJson } from './bounded-input.js';
import { InputError, type InputPlace } from './input-error.js';
import { describeZodError } from './zod-errors.js';

const Args = z.record(z.string(), z.unknown());

const PlannedTool = z.strictObject({
  /** Sent as the tool's arguments; the key goes in on top of them. */
  arguments: Args.default({}),
  /** A read-only tool whose answer changes when the effect happens. Without one the outcome is `inconclusive`. */
  observe: z.strictObject({ tool: z.string().min(1), arguments: Args.default({}) }).optional(),
  /** Sent once more with the same key: a server should refuse them (`idempotency_key_conflict`). */
  conflictArguments: Args.optional(),
  /** How long each call of this tool may go unanswered, in ms, instead of --timeout (which still bounds connecting and the observer). */
  timeoutMs: z.number().int().min(1).max(86_400_000).optional(),
});

export const ProbePlan = z.strictObject({
  tools: z.record(z.string().min(1), PlannedTool).refine((t) => Object.keys(t).length > 0, 'the plan names no tool'),
});

export type ProbePlan = z.infer<typeof ProbePlan>;
export type PlannedTool = z.infer<typeof PlannedTool>;

/** A plan that cannot be used: unreadable, not JSON, not a plan, or naming a tool the server does not list. An InputError. */
export class PlanError extends InputError {
  constructor(detail: string, place: InputPlace = {}) {
    super(detail, place);
    this.name = 'PlanError';
  }
}

/** `source`: what the plan is called in the error (its file, say). */
export function parsePlan(data: unknown, source = 'plan'): ProbePlan {
  return checkPlan(data, { file: source });
}

function checkPlan(data: unknown, place: InputPlace): ProbePlan {
  const parsed = ProbePlan.safeParse(data);
  if (!parsed.success) throw new PlanError(describeZodError('', parsed.error), place);
  return parsed.data;
}

/** A plan names a few tools and their arguments: far below this. */
export const MAX_PLAN_BYTES = 4 * 1024 * 1024;

/** The plan file's text (read by `readPlan`, src/probe.ts, through io/read.ts), parsed and checked; each error names the file. */
export function planOfText(text: string, file: string): ProbePlan {
  const place = { field: '--plan', file };
  const parsed = parseJson(text, { maxBytes: MAX_PLAN_BYTES, maxDepth: MAX_JSON_DEPTH });
  if ('error' in parsed)
    throw new PlanError(parsed.why === 'syntax' ? `not JSON (${parsed.error})` : parsed.error, place);
  return checkPlan(parsed.value, place);
}

/** Every tool the plan lets idemscan call: the planned ones and their observers, each once. */
export function plannedCalls(plan: ProbePlan): { tools: string[]; observers: string[] } {
  const tools = Object.keys(plan.tools);
  const observers = [...new Set(Object.values(plan.tools).flatMap((t) => (t.observe ? [t.observe.tool] : [])))].filter(
    (o) => !tools.includes(o),
  );
  return { tools, observers };
}
