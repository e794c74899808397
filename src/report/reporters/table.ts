/** The terminal summary: one row per server and a total row. */
import Table from 'cli-table3';
import { RULE } from '../../classify/rules/catalogue.js';
import type { Report, ServerReport } from '../schema.js';
import { safeText } from '../terminal.js';
import type { Reporter } from './types.js';
import { plural } from '../verdicts.js';

const HEAD = ['server', 'era', 'tools', 'read-only', 'not read-only', 'keyed', 'unprotected', 'status'];

export function plainTable(head: string[]): Table.Table {
  // No colours: the output goes to logs and CI as often as to terminals.
  return new Table({ head, style: { head: [], border: [], compact: false } });
}

function row(s: ServerReport): (string | number)[] {
  const count = (v: string) => s.tools.filter((t) => t.verdict === v).length;
  const readOnly = count('read-only');
  const keyed = count('keyed') + count('protocol-keyed');
  const partial = s.findings.some((f) => f.rule === RULE.toolListIncomplete);
  const status = s.status === 'ok' ? (partial ? 'ok (partial list)' : 'ok') : `failed: ${s.failure?.kind}`;
  const era = s.protocol ? `${s.protocol.era} ${s.protocol.version}` : '-';
  return [safeText(s.name, 40), era, s.tools.length, readOnly, s.tools.length - readOnly, keyed, count('unprotected'), status];
}

export const tableReporter: Reporter = {
  id: 'table',
  render(report: Report) {
    const table = plainTable(HEAD);
    for (const s of report.servers) table.push(row(s));
    const t = report.summary;
    table.push([
      `total (${plural(t.servers, 'server')})`,
      '',
      t.tools,
      t.readOnly,
      t.notReadOnly,
      t.keyed + t.protocolKeyed,
      t.unprotected,
      `${t.serversOk} ok, ${t.serversFailed} failed`,
    ]);
    const lines = [table.toString()];
    for (const s of report.servers.filter((x) => x.status === 'failed')) {
      lines.push(`${safeText(s.name, 60)}: ${s.failure?.kind}: ${safeText(s.failure?.message ?? '', 300)}`);
    }
    for (const k of report.skipped ?? []) lines.push(`skipped ${safeText(k.name, 60)}: ${safeText(k.reason, 300)}`);
    return lines.join('\n') + '\n';
  },
};
