// One path for `classifyTool` and `retryDecision`, apart so `idemscan/retry` loads no rules or profiles.
import type { EffectiveHints, KeyArgument, Verdict } from '../model/schema.js';
import { effectiveHints } from './hints.js';
import { findKeyArguments, type StepBudget } from './keys.js';
import { verdictOf } from './verdict.js';

export interface ToolVerdict {
  /** The annotations object as received, when it is one. */
  annotations: Record<string, unknown> | undefined;
  effective: EffectiveHints;
  keyArguments: KeyArgument[];
  verdict: Verdict;
}

export function toolVerdict(raw: Record<string, unknown>, serverKeyed: boolean, budget?: StepBudget): ToolVerdict {
  const annotations =
    raw.annotations && typeof raw.annotations === 'object' && !Array.isArray(raw.annotations)
      ? (raw.annotations as Record<string, unknown>)
      : undefined;
  const effective = effectiveHints(annotations);
  const keyArguments = findKeyArguments(raw.inputSchema, budget, String(raw.name));
  return { annotations, effective, keyArguments, verdict: verdictOf(effective, keyArguments, serverKeyed) };
}
