import type { ServerReport, Summary } from './schema.js';
import { isAnnotated } from '../classify/hints.js';

/** Counts over every tool of every server that was scanned (failed servers add no tools). */
export function summarize(servers: ServerReport[]): Summary {
  const tools = servers.flatMap((s) => s.tools);
  const count = (v: string) => tools.filter((t) => t.verdict === v).length;
  const readOnly = count('read-only');
  return {
    servers: servers.length,
    serversOk: servers.filter((s) => s.status === 'ok').length,
    serversFailed: servers.filter((s) => s.status === 'failed').length,
    tools: tools.length,
    readOnly,
    notReadOnly: tools.length - readOnly,
    annotated: tools.filter((t) => isAnnotated(t.annotations)).length,
    protocolKeyed: count('protocol-keyed'),
    keyed: count('keyed'),
    idempotent: count('idempotent'),
    unprotected: count('unprotected'),
  };
}
