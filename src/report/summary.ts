import type { ServerReport, Summary } from './schema.js';
import { countVerdicts, isAnnotated } from './verdicts.js';

/** Counts over every tool of every server that was scanned (failed servers add no tools). */
export function summarize(servers: ServerReport[]): Summary {
  const tools = servers.flatMap((s) => s.tools);
  const c = countVerdicts(tools);
  return {
    servers: servers.length,
    serversOk: servers.filter((s) => s.status === 'ok').length,
    serversFailed: servers.filter((s) => s.status === 'failed').length,
    tools: tools.length,
    readOnly: c['read-only'],
    notReadOnly: tools.length - c['read-only'],
    annotated: tools.filter((t) => isAnnotated(t.annotations)).length,
    protocolKeyed: c['protocol-keyed'],
    keyed: c.keyed,
    idempotent: c.idempotent,
    unprotected: c.unprotected,
  };
}
