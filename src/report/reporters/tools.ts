/** `audit`'s view: every tool of every server with its verdict and the evidence for it. */
import type { Report, ToolReport } from '../schema.js';
import { safeText } from '../terminal.js';
import { plainTable } from './table.js';
import type { Reporter } from './types.js';

function hints(t: ToolReport): string {
  const a = t.annotations ?? {};
  const given = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']
    .filter((h) => h in a)
    .map((h) => `${h.replace('Hint', '')}=${safeText(JSON.stringify(a[h]) ?? '', 20)}`);
  return given.length ? given.join(' ') : '(none)';
}

function evidence(t: ToolReport): string {
  const keys = t.keyArguments.map((k) => `${safeText(k.path, 60)} (${k.confidence})`);
  const findings = t.findings.map((f) => `${f.severity}: ${f.rule}`);
  return [...keys, ...findings].join('\n') || '-';
}

export const toolsReporter: Reporter = {
  id: 'tools',
  render(report: Report) {
    const out: string[] = [];
    for (const s of report.servers) {
      const era = s.protocol ? `${s.protocol.era} ${s.protocol.version}` : 'unknown era';
      const info = s.serverInfo ? ` ${safeText(`${s.serverInfo.name ?? ''} ${s.serverInfo.version ?? ''}`.trim(), 80)}` : '';
      out.push(`${safeText(s.name, 80)}${info} (${era})${s.idempotencyCapability ? ', advertises tools.idempotency' : ''}`);
      if (s.status === 'failed') {
        out.push(`  failed: ${s.failure?.kind}: ${safeText(s.failure?.message ?? '', 500)}`);
        if (s.failure?.stderr) out.push(`  stderr: ${safeText(s.failure.stderr, 500)}`);
        continue;
      }
      const table = plainTable(['tool', 'verdict', 'hints as received', 'keys and findings']);
      for (const t of s.tools) table.push([safeText(t.name, 50), t.verdict, hints(t), evidence(t)]);
      out.push(table.toString());
      for (const f of s.findings) out.push(`  ${f.severity}: ${f.rule}: ${safeText(f.message, 300)}`);
    }
    return out.join('\n') + '\n';
  },
};
