/** Reports built in memory for reporter and compare tests: servers classified from raw tools as a scan would. */
import { classifyServer } from '../../src/classify/index.js';
import type { Report, ServerReport, ToolReport } from '../../src/model/schema.js';
import { summarize } from '../../src/model/summary.js';
import { serverAdvice } from '../../src/model/advice.js';

/** A server that answered with `rawTools`; `extra` overrides any field (its `capabilities` are classified too). */
export function okServer(
  name: string,
  rawTools: Record<string, unknown>[],
  extra: Partial<ServerReport> = {},
): ServerReport {
  const c = classifyServer({ name, rawTools, capabilities: extra.capabilities });
  return {
    name,
    status: 'ok',
    target: { transport: 'stdio', command: 'node' },
    idempotencyCapability: c.idempotencyCapability,
    durationMs: 1,
    tools: c.tools,
    findings: c.findings,
    // As app/scan/server-report.ts sets it on every scanned server.
    advice: serverAdvice({ status: 'ok', tools: c.tools, trusted: extra.trusted }),
    ...extra,
  };
}

/** A report of these servers with its summary; `extra` overrides the envelope (tool, times, options). */
export function reportOf(servers: ServerReport[], extra: Partial<Omit<Report, 'servers' | 'summary'>> = {}): Report {
  return {
    schemaVersion: '1',
    tool: { name: 'idemscan', version: '0.0.0' },
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:01.000Z',
    options: {},
    summary: summarize(servers),
    servers,
    ...extra,
  };
}

/** A read-only tool report as classification leaves it, for passes over reports (redaction). */
export const toolReport = (extra: Partial<ToolReport>): ToolReport => ({
  name: 't',
  effective: { readOnly: true, destructive: false, idempotent: false, openWorld: false },
  verdict: 'read-only',
  keyArguments: [],
  findings: [],
  ...extra,
});

/** An ok HTTP server report holding `tools` as they are (nothing classified). */
export const serverReport = (tools: ToolReport[], extra: Partial<ServerReport> = {}): ServerReport => ({
  name: 's',
  status: 'ok',
  target: { transport: 'http' },
  idempotencyCapability: false,
  durationMs: 1,
  tools,
  findings: [],
  ...extra,
});
