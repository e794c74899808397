/** A probed tool's hints set against what its experiment saw: the `agreement` and its finding. */
import { probesOf } from '../model/probe-cases.js';
import { finding } from '../model/finding.js';
import { RULE } from '../model/catalogue.js';
import type { Agreement, ProbeOutcome, ToolProbe } from '../model/probe-schema.js';
import type { Finding, ToolReport } from '../model/schema.js';
import type { Verdict } from '../model/verdict-ids.js';

/** What a client relies on to retry; the probe cannot tell dedup from overwrite, nor need it. */
export type Claim = 'read-only' | 'keyed' | 'idempotent' | 'not-idempotent' | 'nothing';

export function claimOf(annotations: Record<string, unknown> | undefined, verdict: Verdict): Claim {
  if (annotations?.readOnlyHint === true) return 'read-only';
  if (verdict === 'keyed' || verdict === 'protocol-keyed') return 'keyed';
  if (annotations?.idempotentHint === true) return 'idempotent';
  return annotations?.idempotentHint === false ? 'not-idempotent' : 'nothing';
}

const OBSERVED: ReadonlySet<ProbeOutcome> = new Set(['retry-safe', 'repeated-effect', 'reissue-refused']);

/**
 * Undefined when the experiment could not tell. `unchanged`: an `--auto` experiment saw nothing
 * change at all, which a read-only claim predicts.
 */
export function agreementFor(claim: Claim, outcome: ProbeOutcome, unchanged = false): Agreement | undefined {
  if (unchanged) return claim === 'read-only' ? 'agrees' : undefined;
  if (!OBSERVED.has(outcome)) return undefined;
  // A read-only tool whose call changed what was observed broke its claim, whatever the re-issue did.
  if (claim === 'read-only') return 'overstates';
  const repeated = outcome === 'repeated-effect';
  if (claim === 'keyed' || claim === 'idempotent') return repeated ? 'overstates' : 'agrees';
  return repeated ? 'agrees' : 'understates';
}

/** An `--auto` experiment whose looks all matched. */
export const unchangedBy = (probe: ToolProbe) =>
  probe.method === 'auto' && probe.outcome === 'inconclusive' && probe.evidence.changes?.call.length === 0;

function agreementFinding(tool: ToolReport, probe: ToolProbe, agreement: Agreement): Finding | undefined {
  if (agreement === 'agrees') return undefined;
  const evidence = `probe: ${probe.outcome}`;
  if (agreement === 'understates') {
    const seen = probe.outcome === 'retry-safe' ? 'changed nothing more' : 'answered an error and did not repeat it';
    return finding(RULE.hintsContradictBehaviour, `declares no idempotency, yet the re-issue ${seen}`, {
      severity: 'info',
      tool: tool.name,
      evidence,
    });
  }
  const readOnly = claimOf(tool.annotations, tool.verdict) === 'read-only';
  const said = readOnly ? 'readOnlyHint: true' : 'idempotentHint: true or a key';
  const seen = readOnly ? 'its call changed state' : 'the re-issue repeated its effect';
  return finding(RULE.hintsContradictBehaviour, `declares ${said}, yet ${seen}`, { tool: tool.name, evidence });
}

/** Each probe of the tool judged; a finding per disagreement. */
export function withAgreement<T extends ToolReport>(tool: T): T {
  const claim = claimOf(tool.annotations, tool.verdict);
  const probes = probesOf(tool);
  const judged = probes.map((p) => {
    const agreement = agreementFor(claim, p.outcome, unchangedBy(p));
    return agreement ? { ...p, agreement } : p;
  });
  if (judged.every((p) => !p.agreement)) return tool;
  const findings = judged.flatMap((p) => (p.agreement ? [agreementFinding(tool, p, p.agreement)] : []));
  const placed = tool.probes ? { probes: judged } : { probe: judged[0] };
  return { ...tool, ...placed, findings: [...tool.findings, ...findings.filter((f) => f !== undefined)] };
}
