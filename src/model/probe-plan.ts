/**
 * The plan of `idemscan probe` (docs/PROBE.md): which tools it may call, with what, and which
 * read-only tool shows their effect. Nothing outside it is ever called.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
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

export class PlanError extends Error {}

export function parsePlan(data: unknown, source = 'plan'): ProbePlan {
  const parsed = ProbePlan.safeParse(data);
  if (!parsed.success) throw new PlanError(`${source}: ${describeZodError('', parsed.error)}`);
  return parsed.data;
}

export async function readPlan(file: string): Promise<ProbePlan> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new PlanError(`--plan ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new PlanError(`--plan ${file}: not JSON (${(err as Error).message})`);
  }
  return parsePlan(data, file);
}

/** Every tool the plan lets idemscan call: the planned ones and their observers, each once. */
export function plannedCalls(plan: ProbePlan): { tools: string[]; observers: string[] } {
  const tools = Object.keys(plan.tools);
  const observers = [...new Set(Object.values(plan.tools).flatMap((t) => (t.observe ? [t.observe.tool] : [])))].filter(
    (o) => !tools.includes(o),
  );
  return { tools, observers };
}
