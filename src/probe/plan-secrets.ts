/** The probe plan's own secrets (docs/PROBE.md): its arguments go into calls, and answers may echo them. */
import { planExperiments, type ProbePlan } from '../model/probe-plan.js';
import { isSecretName } from '../redact/redact.js';

/** Only a name makes plan data secret (`Sheet1!B2:B2` looks random); a bare `key` is rarely a credential. */
const NOT_SECRET = /^(?:key|keys|keyword|keywords)$/i;
const isPlanSecret = (name: string, value: string) => value.length >= 4 && isSecretName(name) && !NOT_SECRET.test(name);

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
