/**
 * `tools/list`, every page, raw. A page is salvaged entry by entry (one bad tool must not hide
 * the others), and pagination is bounded: a server may hand back the same cursor forever.
 */
import { bounded, boundedDescription, DESCRIPTION_LIMIT } from '../report/bounds.js';
import type { Finding } from '../report/schema.js';
import { ScanFailure } from './failure.js';
import { asObject, modernMeta, type Session } from './negotiate.js';
import type { RpcClient } from './rpc.js';

export interface ListOptions {
  maxPages: number;
  maxTools: number;
  remainingMs: () => number;
}

export interface Listing {
  /** Each entry exactly as the server sent it (long descriptions cut on arrival). */
  tools: Record<string, unknown>[];
  pages: number;
  findings: Finding[];
}

const MAX_ENTRY_FINDINGS = 20;

export async function listTools(rpc: RpcClient, session: Session, opts: ListOptions): Promise<Listing> {
  const out: Listing = { tools: [], pages: 0, findings: [] };
  const seenCursors = new Set<string>();
  let malformed = 0;
  let dropped = 0;
  let cursor: string | undefined;
  for (;;) {
    const params: Record<string, unknown> = cursor === undefined ? {} : { cursor };
    if (session.era === 'modern') params._meta = modernMeta(session.version);
    let outcome;
    try {
      outcome = await rpc.request('tools/list', params, opts.remainingMs());
    } catch (err) {
      // Pages already read are real tools: keep them, and say the list is incomplete.
      if (out.pages === 0 || !(err instanceof ScanFailure)) throw err;
      out.findings.push(incomplete(out.pages, err.message));
      break;
    }
    if (!outcome.ok) {
      // A server without tools may say so with "method not found"; that is zero tools, not a failure.
      if (out.pages === 0 && outcome.error.code === -32601 && !session.capabilities?.tools) return out;
      const message = `tools/list failed: ${outcome.error.code} ${bounded(outcome.error.message, 300)}`;
      if (out.pages === 0) throw new ScanFailure('protocol', message);
      out.findings.push(incomplete(out.pages, message));
      break;
    }
    const page = out.pages++;
    const tools = outcome.result.tools;
    if (!Array.isArray(tools)) {
      const message = `tools/list page ${page + 1} has no "tools" array`;
      if (page === 0) throw new ScanFailure('protocol', message);
      out.findings.push(incomplete(page, message));
      break;
    }
    tools.forEach((entry, index) => {
      const raw = asObject(entry);
      if (!raw || typeof raw.name !== 'string') {
        if (++malformed <= MAX_ENTRY_FINDINGS) {
          out.findings.push({
            rule: 'malformed-tool-entry',
            severity: 'error',
            message: `tools/list page ${page + 1}, entry ${index}: ${raw ? 'no string "name"' : 'not an object'}; skipped`,
            evidence: `tools[${index}]`,
          });
        }
        return;
      }
      if (out.tools.length < opts.maxTools) out.tools.push(trimmed(raw));
      else dropped++;
    });
    const next = outcome.result.nextCursor;
    const more = next !== undefined && next !== null && next !== '';
    if (out.tools.length >= opts.maxTools && (dropped > 0 || more)) {
      out.findings.push(bound('tool-list-truncated', `stopped at ${opts.maxTools} tools`));
      break;
    }
    if (!more) break;
    if (typeof next !== 'string') {
      out.findings.push(bound('pagination-invalid-cursor', `nextCursor is a ${typeof next}, not a string; stopped`));
      break;
    }
    if (seenCursors.has(next)) {
      out.findings.push(bound('pagination-loop', `the server returned cursor it had already given after page ${page + 1}; stopped`));
      break;
    }
    if (out.pages >= opts.maxPages) {
      out.findings.push(bound('pagination-bound', `stopped after ${opts.maxPages} pages (--max-pages)`));
      break;
    }
    seenCursors.add(next);
    cursor = next;
  }
  if (malformed > MAX_ENTRY_FINDINGS) {
    out.findings.push({
      rule: 'malformed-tool-entry',
      severity: 'error',
      message: `${malformed - MAX_ENTRY_FINDINGS} more malformed entries skipped (${malformed} in all)`,
      evidence: 'tools',
    });
  }
  return out;
}

/** Keeps a page's memory in check across many pages: the long texts are cut on arrival. */
function trimmed(raw: Record<string, unknown>): Record<string, unknown> {
  if (typeof raw.description !== 'string' || raw.description.length <= DESCRIPTION_LIMIT) return raw;
  return { ...raw, description: boundedDescription(raw.description) };
}

function incomplete(pagesRead: number, why: string): Finding {
  return {
    rule: 'tool-list-incomplete',
    severity: 'error',
    message: `listing stopped after ${pagesRead} page(s): ${why}; the tools of those pages are reported, later ones are missing`,
    evidence: 'tools/list',
  };
}

function bound(rule: string, message: string): Finding {
  return { rule, severity: 'warning', message, evidence: 'tools/list' };
}
