/** The one builder of a server's report, its keys in one order; redaction and the budget come after it. */
import type { Negotiated } from '../../connect/negotiate.js';
import { boundedObject, serverInfoOf } from '../../model/bounds.js';
import { LIMITS } from '../../model/limits.js';
import { serverAdvice } from '../../model/advice.js';
import type { AuthInfo, Failure, Finding, ServerReport, TargetInfo, ToolReport } from '../../model/schema.js';

/** What is known of a server so far: only `status`, `target` and `durationMs` are always. */
export interface ServerParts {
  status: ServerReport['status'];
  failure?: Failure;
  target: TargetInfo;
  session?: Negotiated;
  /** A saved tools/list result: nothing was negotiated, so there is no protocol. */
  saved?: boolean;
  /** Absent: not decided (a crash before it was). */
  trusted?: boolean;
  idempotencyCapability?: boolean;
  auth?: AuthInfo;
  durationMs: number;
  tools?: ToolReport[];
  findings?: Finding[];
}

export function serverReport(name: string, parts: ServerParts): ServerReport {
  const { session, trusted } = parts;
  const tools = parts.tools ?? [];
  return {
    name,
    idempotencyCapability: parts.idempotencyCapability ?? false,
    ...(trusted === undefined ? {} : { trusted }),
    tools,
    findings: parts.findings ?? [],
    status: parts.status,
    failure: parts.failure,
    target: parts.target,
    protocol: session && !parts.saved ? protocolOf(session) : undefined,
    serverInfo: serverInfoOf(session?.serverInfo),
    capabilities: session?.capabilities && boundedObject(session.capabilities, LIMITS.capabilitiesJson),
    auth: parts.auth,
    durationMs: parts.durationMs,
    // The answer is computed here, once, from the verdicts; reporters read it (model/advice.ts).
    advice: serverAdvice({ status: parts.status, tools, trusted }),
  };
}

function protocolOf(session: Negotiated): ServerReport['protocol'] {
  return {
    era: session.era,
    version: session.version,
    negotiation: session.notes.length ? session.notes.join('; ') : undefined,
  };
}
