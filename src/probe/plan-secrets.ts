/** The probe plan's own secrets (docs/PROBE.md): its arguments go into calls, and answers may echo them. */
import { planExperiments, type ProbePlan } from '../model/probe-plan.js';
import { isSecretName } from '../redact/redact.js';

/**
 * A plan's argument is test data its author wrote and named, so only its name can make it a secret
 * (`api_key`, `token`, `password`): a value that merely looks random (`Sheet1!B2:B2`) is a cell
 * range, a path or a seed row, and redacting it would blank the evidence. A bare `key` names a
 * config or map key far more often than a credential (`set_config_value {key, value}`).
 */
const NOT_SECRET = /^(?:key|keys|keyword|keywords)$/i;
const isPlanSecret = (name: string, value: string) => value.length >= 4 && isSecretName(name) && !NOT_SECRET.test(name);

/** The values of the plan's secret-named arguments (an `api_key`, a token): redacted from the report like a launch's. */
export function planSecrets(plan: ProbePlan): string[] {
  const out: string[] = [];
  const walk = (v: unknown, name: string, depth: number) => {
    if (depth > 32) return;
    if (typeof v === 'string') {
      if (isPlanSecret(name, v)) out.push(v);
    } else if (Array.isArray(v)) for (const x of v) walk(x, name, depth + 1);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k, depth + 1);
  };
  for (const { planned: t } of planExperiments(plan)) {
    walk(t.arguments, '', 0);
    walk(t.conflictArguments, '', 0);
    walk(t.observe?.arguments, '', 0);
  }
  for (const s of plan.setup ?? []) walk(s.arguments, '', 0);
  return out;
}
