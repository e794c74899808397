/** A probe plan file from disk (docs/PROBE.md), through the one bounded file read. */
import { readBoundedText } from '../io/read.js';
import { MAX_PLAN_BYTES, planOfText, PlanError, type ProbePlan } from '../model/probe-plan.js';

/** A plan file, read to MAX_PLAN_BYTES and checked; a PlanError naming the file when it is no plan. */
export async function readPlan(file: string): Promise<ProbePlan> {
  const read = await readBoundedText(file, { maxBytes: MAX_PLAN_BYTES });
  if ('error' in read)
    throw new PlanError(read.kind === 'unreadable' ? `cannot read it (${read.code ?? 'error'})` : read.error, {
      field: '--plan',
      file,
    });
  return planOfText(read.text, file);
}
