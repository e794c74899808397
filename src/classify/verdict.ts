/** The verdict: the first that applies, in the order of DESIGN.md §3. */
import type { EffectiveHints, KeyArgument, Verdict } from '../model/schema.js';

export function verdictOf(effective: EffectiveHints, keys: KeyArgument[], serverKeyed: boolean): Verdict {
  if (effective.readOnly) return 'read-only';
  if (serverKeyed) return 'protocol-keyed';
  if (keys.some((k) => k.confidence === 'strong')) return 'keyed';
  if (effective.idempotent) return 'idempotent';
  return 'unprotected';
}

/** `capabilities.tools.idempotency` (SEP-3182): present as an object (or `true`). */
export function advertisesIdempotency(capabilities: Record<string, unknown> | undefined): boolean {
  const tools = capabilities?.tools;
  if (!tools || typeof tools !== 'object') return false;
  const flag = (tools as Record<string, unknown>).idempotency;
  return flag === true || (!!flag && typeof flag === 'object');
}
