/**
 * `tools/list`, every page, raw. A page is salvaged entry by entry (one bad tool must not hide
 * the others), and pagination is bounded: a server may hand back the same cursor forever.
 */
import type { Finding } from '../report/schema.js';
import { ScanFailure } from './failure.js';
import { asObject, modernMeta, type Session } from './negotiate.js';
import type { RpcClient } from './rpc.js';

export interface ListOptions {
  maxPages: number;
  maxTools: number;
  remainingMs: () => number;
}

export interface RawTool {
  /** The entry exactly as the server sent it. */
  raw: Record<string, unknown>;
  page: number;
  index: number;
}

export interface Listing {
  tools: RawTool[];
  pages: number;
  findings: Finding[];
}

export async function listTools(rpc: RpcClient, session: Session, opts: ListOptions): Promise<Listing> {
  const out: Listing = { tools: [], pages: 0, findings: [] };
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  for (;;) {
    const params: Record<string, unknown> = cursor === undefined ? {} : { cursor };
    if (session.era === 'modern') params._meta = modernMeta(session.version);
    const outcome = await rpc.request('tools/list', params, opts.remainingMs());
    if (!outcome.ok) {
      // A server without tools may say so with "method not found"; that is zero tools, not a failure.
      if (out.pages === 0 && outcome.error.code === -32601 && !session.capabilities?.tools) return out;
      throw new ScanFailure('protocol', `tools/list failed: ${outcome.error.code} ${outcome.error.message.slice(0, 300)}`);
    }
    const page = out.pages++;
    const tools = outcome.result.tools;
    if (!Array.isArray(tools)) {
      throw new ScanFailure('protocol', `tools/list page ${page + 1} has no "tools" array`);
    }
    tools.forEach((entry, index) => {
      const raw = asObject(entry);
      if (!raw || typeof raw.name !== 'string') {
        out.findings.push({
          rule: 'malformed-tool-entry',
          severity: 'error',
          message: `tools/list page ${page + 1}, entry ${index}: ${raw ? 'no string "name"' : 'not an object'}; skipped`,
          evidence: `tools[${index}]`,
        });
        return;
      }
      if (out.tools.length < opts.maxTools) out.tools.push({ raw, page, index });
    });
    if (out.tools.length >= opts.maxTools) {
      out.findings.push(bound('tool-list-truncated', `stopped at ${opts.maxTools} tools`));
      return out;
    }
    const next = outcome.result.nextCursor;
    if (next === undefined || next === null || next === '') return out;
    if (typeof next !== 'string') {
      out.findings.push(bound('pagination-invalid-cursor', `nextCursor is a ${typeof next}, not a string; stopped`));
      return out;
    }
    if (seenCursors.has(next)) {
      out.findings.push(bound('pagination-loop', `the server returned cursor it had already given after page ${page + 1}; stopped`));
      return out;
    }
    if (out.pages >= opts.maxPages) {
      out.findings.push(bound('pagination-bound', `stopped after ${opts.maxPages} pages (--max-pages)`));
      return out;
    }
    seenCursors.add(next);
    cursor = next;
  }
}

function bound(rule: string, message: string): Finding {
  return { rule, severity: 'warning', message, evidence: 'tools/list' };
}
